import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { DbProcess, startDbProcess } from '../support/embedded-db-process';

/** The server's own view of how a client reached it: NULL over a Unix socket, the address over TCP. */
async function serverAddress(url: string): Promise<string | null> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT host(inet_server_addr()) AS addr`);
    return rows[0].addr;
  } finally {
    await client.end();
  }
}

/** The embedded server is reached over a Unix socket beside the cluster, and over loopback TCP as well. */
describe('embedded PostgreSQL connections', () => {
  const dirs: string[] = [];
  const servers: DbProcess[] = [];
  afterAll(async () => {
    for (const server of servers) await server.stop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('gives the service a Unix-socket URL under the data folder, and a TCP URL that works too', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-sock-'));
    dirs.push(dir);
    const db = await startDbProcess(dir);
    servers.push(db);
    const socketDir = new URL(db.url).searchParams.get('host');
    expect(socketDir).toBe(path.join(dir, 'pg-socket'));
    expect(fs.existsSync(path.join(socketDir!, `.s.PGSQL.${db.port}`))).toBe(true);
    expect(await serverAddress(db.url)).toBeNull();
    expect(await serverAddress(db.tcpUrl)).toBe('127.0.0.1');
  });

  it('keeps to TCP when the data folder is too deep for a socket path', async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-deep-'));
    dirs.push(base);
    const dir = path.join(base, 'd'.repeat(60), 'e'.repeat(40));
    // As root the server runs as `postgres`, which must be able to reach the folder through its parents.
    fs.mkdirSync(dir, { recursive: true });
    for (let p = dir; p !== path.dirname(base); p = path.dirname(p)) fs.chmodSync(p, 0o755);
    const db = await startDbProcess(dir);
    servers.push(db);
    expect(db.url).toBe(db.tcpUrl);
    expect(await serverAddress(db.url)).toBe('127.0.0.1');
  });
});
