import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../../src/database/embedded/embedded-postgres';
import { waitFor } from '../support/wait';
import { isAlive, postmasterPid, ROOT } from '../support/service-process';

/**
 * The service with everything it writes on one small file system that the test fills: the embedded
 * PostgreSQL's data (DATA_DIR), the staged uploads (TMPDIR) and its log (stdout, a file). While it is full every
 * refused request is a 503 with Retry-After and the error body, the process stays up, staged attachments are
 * removed, the log's lost lines are counted; the PostgreSQL it owns, stopped meanwhile, is started again once
 * there is room; then writes resume and everything acknowledged reads back.
 *
 * The file system is a size-limited tmpfs, which needs root and a kernel that lets this process mount. Where
 * that is not allowed the case is skipped (one line says so); `test/platform/out-of-storage-injected.e2e-spec.ts` covers the
 * same refusals by fault injection (PostgreSQL's class-53 errors, an evidence store failing with ENOSPC).
 */
function tmpfsAllowed(): string | undefined {
  if (process.getuid?.() !== 0) return `not root (uid ${process.getuid?.()})`;
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'pipe' });
    execFileSync('umount', [probe], { stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return `mount -t tmpfs refused: ${String((error as { stderr?: unknown }).stderr ?? error).trim()}`;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
}

const refusedMount = tmpfsAllowed();
if (refusedMount) {
  process.stdout.write(`disk-full fault case skipped (${refusedMount}); the fault-injection spec covers the refusals\n`);
}

const ADMIN_TOKEN = 'operator-token-for-out-of-storage';
const KB = 1024;

/** Fills the file system holding `file` to the last byte (big writes, then small ones, until ENOSPC). */
function fill(file: string): void {
  const fd = fs.openSync(file, 'a');
  try {
    for (const size of [1024 * KB, 64 * KB, 4 * KB, 512]) {
      const chunk = Buffer.alloc(size, 1);
      for (;;) {
        try {
          fs.writeSync(fd, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw error;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

(refusedMount ? describe.skip : describe)('out of storage on a real, full file system', () => {
  let mount: string;
  let child: ChildProcess;
  let port: number;
  let stderr = '';
  let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  const base = () => `http://127.0.0.1:${port}`;

  beforeAll(async () => {
    mount = fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-full-'));
    // 0755: as root, PostgreSQL runs as the user postgres, which must pass this folder.
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=160m,mode=0755', 'tmpfs', mount]);
    fs.mkdirSync(path.join(mount, 'tmp'), { mode: 0o1777 });
    fs.chmodSync(path.join(mount, 'tmp'), 0o1777);
    port = await freePort();
    const log = fs.openSync(path.join(mount, 'service.log'), 'a');
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: path.join(mount, 'data'), TMPDIR: path.join(mount, 'tmp'), ADMIN_TOKEN, LOG_LEVEL: 'info', LOG_FORMAT: 'json' };
    delete env.DATABASE_URL;
    child = spawn(process.execPath, [path.join(ROOT, 'dist/src/main.js')], { cwd: ROOT, env, stdio: ['ignore', log, 'pipe'] });
    fs.closeSync(log);
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    await waitFor(async () => child.exitCode === null && (await status('/ready')) === 200, { timeoutMs: 120_000, what: `service ready (${stderr})` });
  }, 180_000);

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    const pid = postmasterPid(path.join(mount, 'data', 'pg'));
    if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
    if (mount) {
      execFileSync('umount', ['-l', mount]);
      fs.rmSync(mount, { recursive: true, force: true });
    }
  }, 60_000);

  async function status(route: string): Promise<number> {
    try {
      return (await fetch(base() + route)).status;
    } catch {
      return 0;
    }
  }

  const auth = (key: string) => ({ Authorization: `Bearer ${key}` });
  async function json(method: string, route: string, key: string, body: unknown) {
    const res = await fetch(base() + route, { signal: AbortSignal.timeout(60_000), method, headers: { ...auth(key), 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json().catch(() => null)) as any };
  }
  async function attest(key: string, name: string, attachmentBytes: number) {
    const form = new FormData();
    form.set('data_json', JSON.stringify({ attestation_name: name, is_compliant: true }));
    form.set('attachment_file', new Blob([Buffer.alloc(attachmentBytes, name)]), `${name}.bin`);
    const res = await fetch(base() + '/api/v2/attestations/full-org/app/trail/release/generic', { signal: AbortSignal.timeout(60_000), method: 'POST', headers: auth(key), body: form });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json().catch(() => null)) as any };
  }
  const metric = async (series: RegExp): Promise<number> => {
    const text = await (await fetch(base() + '/metrics')).text();
    return text
      .split('\n')
      .filter((line) => series.test(line))
      .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
  };

  it('refuses with 503 + Retry-After while full, stays up, loses nothing acknowledged, and resumes by itself', async () => {
    const org = await json('POST', '/api/v2/admin/organizations', ADMIN_TOKEN, { name: 'full-org', admin: { email: 'ann@example.com' } });
    expect(org.status).toBe(201);
    const key: string = org.body.admin.api_key;
    expect((await json('PUT', '/api/v2/flows/full-org', key, { name: 'app', description: 'd', visibility: 'private' })).status).toBe(201);
    const trail = new FormData();
    trail.set('data_json', JSON.stringify({ name: 'release' }));
    expect((await fetch(base() + '/api/v2/trails/full-org/app', { method: 'PUT', headers: auth(key), body: trail })).status).toBe(201);
    const acknowledged: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await attest(key, `before-${i}`, 100 * KB);
      expect(res.status).toBe(201);
      acknowledged.push(`before-${i}`);
    }

    fill(path.join(mount, 'filler'));

    // Writes of every kind: attachments kept in memory (stored in PostgreSQL) and spilled to a temp file while
    // they arrive (refused while staging), and a JSON write. Some may still fit (PostgreSQL has room in pages it
    // already has); every refusal must be a 503 with Retry-After and the error body.
    const refusals: Array<{ status: number; retryAfter: string | null; body: unknown }> = [];
    for (let i = 0; refusals.length < 6 && i < 60; i++) {
      const res =
        i % 3 === 0
          ? await attest(key, `full-${i}`, 100 * KB)
          : i % 3 === 1
            ? await attest(key, `full-${i}`, 700 * KB)
            : await json('PUT', '/api/v2/flows/full-org', key, { name: `flow-${i}`, description: 'x'.repeat(4000), visibility: 'private' });
      if (res.status === 201 || res.status === 200) {
        if (i % 3 !== 2) acknowledged.push(`full-${i}`);
        continue;
      }
      refusals.push(res);
    }
    expect(refusals.length).toBeGreaterThanOrEqual(6);
    for (const refusal of refusals) {
      expect(refusal).toEqual({
        status: 503,
        retryAfter: expect.stringMatching(/^[1-9]\d*$/),
        body: { message: expect.stringMatching(/^(The server is out of storage; retry later|Database temporarily unavailable, please retry)$/), errors: null },
      });
    }
    expect(refusals.some((r) => (r.body as { message: string }).message === 'The server is out of storage; retry later')).toBe(true);

    // Up, and saying so where operators look.
    expect(child.exitCode).toBeNull();
    expect(await status('/health')).toBe(200);
    expect(await metric(/^veritrail_resource_refusals_total\{resource="storage"/)).toBeGreaterThanOrEqual(1);
    expect(await metric(/^veritrail_storage_exhausted /)).toBe(1);
    // Space freed since the fill (staged uploads removed, PostgreSQL's own files) is taken again before each poll,
    // so the next log lines (every request's access line, these polls' own included) find the disk full.
    const dropped = await waitFor(
      async () => {
        fill(path.join(mount, 'filler'));
        const n = await metric(/^veritrail_log_lines_dropped_total\{reason="ENOSPC"\}/);
        return n > 0 ? n : undefined;
      },
      { timeoutMs: 30_000, what: 'a log line dropped for lack of space and counted' },
    );
    expect(dropped).toBeGreaterThan(0);
    const ready = await fetch(base() + '/ready');
    if (ready.status === 200) expect(await ready.json()).toEqual({ status: 'ready', database: 'ok', storage: 'exhausted' });
    else expect(ready.status).toBe(503);
    expect(stderr).toMatch(/"msg":"log output failed: log lines are dropped/);
    // Nothing half-written: every staged attachment is gone.
    const staged = path.join(mount, 'tmp', 'veritrail-uploads');
    await waitFor(() => !fs.existsSync(staged) || fs.readdirSync(staged).length === 0, { what: 'staged uploads removed' });

    // PostgreSQL itself stops (as it does when a WAL write or the checkpoint of its crash recovery finds no
    // space): the service starts it again once there is room; meanwhile, 503 with Retry-After.
    const clusterDir = path.join(mount, 'data', 'pg');
    const postmaster = postmasterPid(clusterDir)!;
    process.kill(postmaster, 'SIGKILL');
    await waitFor(() => !isAlive(postmaster), { what: 'PostgreSQL gone' });
    const meanwhile = await attest(key, 'while-stopped', 1 * KB);
    expect({ status: meanwhile.status, retryAfter: meanwhile.retryAfter }).toEqual({ status: 503, retryAfter: expect.stringMatching(/^[1-9]\d*$/) });
    expect(child.exitCode).toBeNull();

    // Space returns: writes resume by themselves, without a restart of the service.
    fs.rmSync(path.join(mount, 'filler'));
    await waitFor(async () => (await attest(key, 'after', 700 * KB)).status === 201, { timeoutMs: 120_000, intervalMs: 500, what: 'writes resume' });
    acknowledged.push('after');
    expect(postmasterPid(clusterDir)).not.toBe(postmaster);

    const listed = await fetch(base() + '/api/v2/attestations/full-org/app?per_page=100', { headers: auth(key) });
    expect(listed.status).toBe(200);
    const stored = new Set((((await listed.json()) as any).data as Array<{ attestation_name: string }>).map((a) => a.attestation_name));
    expect(acknowledged.filter((name) => !stored.has(name))).toEqual([]);

    // The log, on the same disk, got lines again, and says how many it lost.
    // (A line the disk filled up in the middle of is cut short: at most one, ended before the next line.)
    const lines = fs.readFileSync(path.join(mount, 'service.log'), 'utf8').split('\n').filter(Boolean);
    const parse = (line: string) => {
      try {
        return JSON.parse(line);
      } catch {
        return undefined;
      }
    };
    expect(lines.filter((line) => parse(line) === undefined).length).toBeLessThanOrEqual(1);
    const logged = lines.map(parse).filter(Boolean);
    expect(logged.some((line) => line.msg === 'log lines were dropped while the log output failed' && line.dropped > 0 && line.reason === 'ENOSPC')).toBe(true);
    expect(logged.filter((line) => line.level === 'error' && /^out of storage/.test(line.msg)).length).toBeLessThanOrEqual(1);

    child.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
  }, 300_000);
});
