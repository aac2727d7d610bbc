import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../../src/database/embedded/embedded-postgres';

const ROOT = path.resolve(__dirname, '../..');

async function waitFor(url: string, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.status === 200) return 200;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return 0;
}

/** `npm start` with nothing configured: embedded PostgreSQL in DATA_DIR, migrations, /ready answers 200. */
describe('start-up', () => {
  let child: ChildProcess | undefined;
  let dataDir: string;
  let output = '';

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-start-'));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('npm start brings the service up on the embedded database and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info' } as NodeJS.ProcessEnv;
    delete env.DATABASE_URL;
    delete env.ADMIN_TOKEN;
    child = spawn('npm', ['start', '--silent'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    child.stdout!.on('data', (c) => (output += c));
    child.stderr!.on('data', (c) => (output += c));

    const status = await waitFor(`http://127.0.0.1:${port}/ready`, 90_000);
    expect({ status, output: status === 200 ? '' : output }).toEqual({ status: 200, output: '' });
    expect(fs.existsSync(path.join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
    const token = fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
    expect(output).toContain(path.join(dataDir, 'admin-token'));
    expect(output).not.toContain(token);

    const res = await fetch(`http://127.0.0.1:${port}/api/v2/admin/organizations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'startup-org', admin: { email: 'first@example.com' } }),
    });
    expect(res.status).toBe(201);

    // SIGTERM to the whole process group, as Kubernetes does to a container's processes.
    const exited = new Promise<void>((resolve) => child!.once('exit', () => resolve()));
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
    // The embedded server was stopped, not orphaned: its pid file goes away.
    const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
    for (let i = 0; i < 100 && fs.existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 100));
    expect(fs.existsSync(pidFile)).toBe(false);
    expect(output).toContain('shutting down');
  }, 150_000);
});
