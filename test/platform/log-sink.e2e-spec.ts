import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { freePort } from '../../src/database/embedded/embedded-postgres';
import { waitFor } from '../support/wait';
import { ROOT } from '../support/service-process';

/**
 * The service's log output fails: stdout a pipe whose reader goes away (EPIPE), or a device that is full
 * (/dev/full answers every write with ENOSPC, as a full disk does). The service keeps serving, drops and counts
 * the lines (`veritrail_log_lines_dropped_total`), says so once on stderr, and stops cleanly.
 * (A log file on a disk that fills and gets space back: test/faults/disk-full.faults-spec.ts.)
 */
describe('a log output that fails', () => {
  const start = async (stdout: 'pipe' | number) => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: process.env.TEST_DATABASE_URL,
      ADMIN_TOKEN: 'operator-token-for-log-sink-test',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
    };
    const child = spawn(process.execPath, [`${ROOT}/dist/src/main.js`], { cwd: ROOT, env, stdio: ['ignore', stdout, 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    const get = async (route: string) => {
      try {
        const res = await fetch(`http://127.0.0.1:${port}${route}`);
        return { status: res.status, text: await res.text() };
      } catch {
        return { status: 0, text: '' };
      }
    };
    await waitFor(async () => child.exitCode === null && (await get('/ready')).status === 200, { timeoutMs: 60_000, what: 'service ready' });
    const dropped = async (reason: string) => {
      const line = (await get('/metrics')).text.split('\n').find((l) => l.startsWith(`veritrail_log_lines_dropped_total{reason="${reason}"} `));
      return line ? Number(line.split(' ').pop()) : 0;
    };
    return { child, exited, get, dropped, stderr: () => stderr };
  };

  it('stdout a pipe closed early (EPIPE): keeps serving, counts the lines it drops', async () => {
    const service = await start('pipe');
    service.child.stdout!.destroy();
    for (let i = 0; i < 20; i++) expect((await service.get('/health')).status).toBe(200);
    expect(await service.dropped('EPIPE')).toBeGreaterThan(0);
    expect(service.child.exitCode).toBeNull();
    expect(service.stderr()).toMatch(/"msg":"log output failed: log lines are dropped[^"]*","reason":"EPIPE"/);
    service.child.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });
  }, 120_000);

  it('stdout a full device (ENOSPC): keeps serving, counts the lines it drops', async () => {
    const full = fs.openSync('/dev/full', 'w');
    const service = await start(full);
    fs.closeSync(full);
    const before = await service.dropped('ENOSPC');
    expect(before).toBeGreaterThan(0); // start-up's own lines
    for (let i = 0; i < 20; i++) expect((await service.get('/health')).status).toBe(200);
    expect(await service.dropped('ENOSPC')).toBeGreaterThanOrEqual(before + 20); // an access line each
    expect(service.stderr().match(/log output failed/g)).toHaveLength(1);
    service.child.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });
  }, 120_000);
});
