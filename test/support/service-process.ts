import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { freePort } from '../../src/database/embedded/embedded-postgres';
import { waitOrGiveUp } from './wait';

export const ROOT = path.resolve(__dirname, '../..');

/**
 * The status /ready answers, or 0 when nothing answers. Each probe opens its own connection: a kept-alive one
 * could be closed by the server's keep-alive timeout just as the probe reuses it, and read as "not answering".
 */
export function readyStatus(port: number): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/ready', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('error', () => resolve(0));
  });
}

export interface ServiceProcess {
  child: ChildProcess;
  port: number;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves true once /ready answers 200, false if it exits or the deadline passes first. */
  ready(timeoutMs?: number): Promise<boolean>;
}

/**
 * `node dist/src/main.js` as its own process (what `npm start` runs after building), with no DATABASE_URL, so it
 * starts the embedded PostgreSQL in DATA_DIR. Signals sent to `child.pid` reach the service process only.
 */
export async function startService(options: { dataDir?: string; checkout?: string; env?: Record<string, string> } = {}): Promise<ServiceProcess> {
  const checkout = options.checkout ?? ROOT;
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), LOG_LEVEL: 'info', ...options.env };
  // The service's own embedded database, unless the caller names one (several services on one database).
  if (!options.env?.DATABASE_URL) delete env.DATABASE_URL;
  if (!options.env?.ADMIN_TOKEN) delete env.ADMIN_TOKEN;
  if (options.dataDir) env.DATA_DIR = options.dataDir;
  else delete env.DATA_DIR;
  const child = spawn(process.execPath, [path.join(checkout, 'dist/src/main.js')], { cwd: checkout, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => {
    out += c;
    err += c;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let gone = false;
  void exited.then(() => (gone = true));
  return {
    child,
    port,
    output: () => out,
    stderr: () => err,
    exited,
    ready: async (timeoutMs = 90_000) =>
      // 'exited' ends the wait as soon as the process is gone, without waiting out the deadline
      (await waitOrGiveUp(async () => (gone ? 'exited' : (await readyStatus(port)) === 200 ? 'ready' : undefined), { timeoutMs, intervalMs: 200 })) ===
      'ready',
  };
}

/** The pid PostgreSQL's lock file names, if the file is there. */
export function postmasterPid(clusterDir: string): number | undefined {
  try {
    return Number(fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
}

/** Whether a process runs with this pid (a zombie, dead but not yet reaped, does not count). */
export function isAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

/** Pids of running processes whose command line mentions `dir` (a postmaster started with `-D <dir>/pg`). */
export function processesMentioning(dir: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').some((arg) => arg.includes(dir)) && isAlive(Number(entry))) {
        found.push(Number(entry));
      }
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}
