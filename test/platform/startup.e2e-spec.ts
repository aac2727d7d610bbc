import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../../src/database/embedded/embedded-postgres';
import { waitOrGiveUp } from '../support/wait';

const ROOT = path.resolve(__dirname, '../..');

/** 200 once the service answers `url` with 200, 0 if it has not by the deadline. */
async function readyWithin(url: string, timeoutMs: number): Promise<number> {
  const ok = await waitOrGiveUp(
    async () => {
      try {
        return (await fetch(url)).status === 200;
      } catch {
        return false; // not listening yet
      }
    },
    { timeoutMs, intervalMs: 250 },
  );
  return ok ? 200 : 0;
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

    const status = await readyWithin(`http://127.0.0.1:${port}/ready`, 90_000);
    expect({ status, output: status === 200 ? '' : output }).toEqual({ status: 200, output: '' });
    expect(fs.existsSync(path.join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
    const token = fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
    expect(output).toContain(path.join(dataDir, 'admin-token'));
    expect(output).not.toContain(token);

    // The README's first commands: `npm run admin -- ...` finds the token in DATA_DIR by itself.
    const admin = (...args: string[]) =>
      execFileSync(process.execPath, ['scripts/admin.js', ...args], {
        cwd: ROOT,
        env: { ...env, VERITRAIL_URL: `http://127.0.0.1:${port}` },
        encoding: 'utf8',
      });
    const created = JSON.parse(admin('create-org', 'startup-org', '--admin-email', 'first@example.com', '--features', 'evaluations'));
    expect(created).toMatchObject({ name: 'startup-org', features: ['evaluations'], admin: { api_key: expect.stringMatching(/^vtk_/) } });
    expect(JSON.parse(admin('set-features', 'startup-org', 'trail_moments,controls')).features).toEqual(['controls', 'trail_moments']);
    expect(JSON.parse(admin('add-member', 'startup-org', 'bob@example.com', 'member'))).toMatchObject({ role: 'member' });
    const me = await fetch(`http://127.0.0.1:${port}/api/v2/organizations/startup-org`, {
      headers: { Authorization: `Bearer ${created.admin.api_key}` },
    });
    expect(me.status).toBe(200);

    // SIGTERM to the whole process group, as Kubernetes does to a container's processes.
    const exited = new Promise<void>((resolve) => child!.once('exit', () => resolve()));
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
    // The embedded server was stopped, not orphaned: its pid file goes away.
    const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
    expect(await waitOrGiveUp(() => !fs.existsSync(pidFile), { timeoutMs: 10_000, intervalMs: 100 })).toBe(true);
    expect(output).toContain('shutting down');
  }, 150_000);
});
