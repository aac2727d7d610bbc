/**
 * Shared by bench/ingest and bench/listing: starts the real service (dist/src/main.js, a child process) against
 * an embedded PostgreSQL started here, creates an org through the operator route, and gives back its API key.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { freePort, startEmbeddedPostgres } from '../../src/database/embedded/embedded-postgres';

export interface Stack {
  /** pid of the service process (CPU accounting) */
  pid: number;
  dbUrl: string;
  /** The service's DATA_DIR (its log signing key), for another service started on the same database. */
  dataDir: string;
  baseUrl: string;
  orgName: string;
  apiKey: string;
  adminToken: string;
  /** CPU seconds used so far by this stack's own PostgreSQL (its postmaster and the postmaster's children). */
  postgresCpuSeconds(): number;
  /** CPU seconds by kind of PostgreSQL process (`postgresCpuByKind`). */
  postgresCpuByKind(): Map<string, number>;
  stop(): Promise<void>;
}

const ROOT = path.resolve(__dirname, '../..');

export function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer | string; agent?: http.Agent } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers, agent: options.agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.body !== undefined) req.end(options.body);
    else req.end();
  });
}

async function waitForHealth(baseUrl: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`service exited with code ${child.exitCode}`);
    try {
      const res = await request(`${baseUrl}/health`);
      if (res.status === 200) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('service did not become healthy');
}

export async function startStack(
  options: {
    env?: Record<string, string>;
    log?: (line: string) => void;
    /** diagnostic only */
    asyncCommit?: boolean;
    /** diagnostic only: PostgreSQL started with pg_stat_statements (bench/ingest/pg-statements.ts) */
    statementStats?: boolean;
    nodeArgs?: string[];
    /** Another build's main.js (bench/ingest/compare.ts); default dist/src/main.js. */
    main?: string;
    /** Another Node.js binary for the service; default this process's. */
    node?: string;
  } = {},
): Promise<Stack> {
  const main = path.resolve(options.main ?? path.join(ROOT, 'dist/src/main.js'));
  if (!fs.existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` first`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-bench-'));
  // Durable settings, as main.ts starts it (fsync and synchronous_commit on).
  let db = await startEmbeddedPostgres({ dataDir });
  if (options.statementStats) {
    // A preloaded library takes a restart: set it, stop, and start the same cluster again.
    const c = new Client({ connectionString: db.url });
    await c.connect();
    await c.query(`ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'`);
    await c.query(`ALTER SYSTEM SET pg_stat_statements.track = 'all'`);
    await c.query(`ALTER SYSTEM SET pg_stat_statements.track_planning = on`);
    await c.end();
    await db.stop();
    db = await startEmbeddedPostgres({ dataDir, port: db.port });
    const e = new Client({ connectionString: db.url });
    await e.connect();
    await e.query(`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`);
    await e.end();
  }
  if (options.asyncCommit) {
    const c = new Client({ connectionString: db.url });
    await c.connect();
    await c.query(`ALTER SYSTEM SET synchronous_commit = off`);
    await c.query(`SELECT pg_reload_conf()`);
    await c.end();
  }
  const port = await freePort();
  const adminToken = 'bench-operator-' + randomBytes(12).toString('hex');
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(options.node ?? process.execPath, [...(options.nodeArgs ?? []), main], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      ADMIN_TOKEN: adminToken,
      LOG_LEVEL: 'warn',
      PUBLIC_BASE_URL: baseUrl,
      // Benchmarks measure what the service can take, so its per-key rate limit is off (a run may set it).
      RATE_LIMIT_REQUESTS: '0',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => options.log?.(String(d)));
  child.stderr!.on('data', (d) => process.stderr.write(d));
  // Never leave the service running: not on an error, not when this script is interrupted.
  const killChild = () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  process.once('exit', killChild);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      killChild();
      void db.stop().finally(() => process.exit(130));
    });
  }
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    await db.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseUrl, child);
    const orgName = 'bench-' + randomBytes(4).toString('hex');
    const res = await request(`${baseUrl}/api/v2/admin/organizations`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: orgName, features: [], admin: { email: `admin@${orgName}.example.com` } }),
    });
    if (res.status !== 201) throw new Error(`create org: ${res.status} ${res.body}`);
    const postmaster = Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    return {
      pid: child.pid!,
      dbUrl: db.url,
      dataDir,
      baseUrl,
      orgName,
      apiKey: JSON.parse(res.body).admin.api_key,
      adminToken,
      postgresCpuSeconds: () => postgresCpuSeconds(postmaster),
      postgresCpuByKind: () => postgresCpuByKind(postmaster),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * CPU seconds a process has used so far (Linux): the sum of its live threads' run time in nanoseconds
 * (`/proc/<pid>/task/<tid>/schedstat`), where /proc/<pid>/stat counts 10 ms ticks: a PostgreSQL backend's share
 * of one request is tens of microseconds, and ticks made the per-operation figures move in steps of 10% and
 * more. A thread that exits takes its time with it, so a measured window must not span one's end (the service's
 * threads, PostgreSQL's backends and its pool's connections live through a run). NaN if the process is gone;
 * ticks if the kernel keeps no schedstat.
 */
export function cpuSeconds(pid: number): number {
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return NaN;
  }
  let ns = 0;
  for (const task of tasks) {
    try {
      ns += Number(fs.readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // the thread ended
      return ticksOf(pid);
    }
  }
  return ns / 1e9;
}

/** utime + stime of /proc/<pid>/stat, in seconds (10 ms ticks). */
function ticksOf(pid: number): number {
  try {
    return cpuOf(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '));
  } catch {
    return NaN;
  }
}

/** Each PostgreSQL process (Linux): its pid and its /proc stat fields after the command name. */
function* postgresProcesses(): Generator<{ pid: number; fields: string[] }> {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.includes('(postgres)')) yield { pid: Number(entry), fields: stat.split(') ')[1].split(' ') };
    } catch {
      /* gone */
    }
  }
}

/** utime + stime of /proc stat fields, in seconds (fields[13], [14]: the same of reaped children). */
const cpuOf = (fields: string[], from = 11) => (Number(fields[from]) + Number(fields[from + 1])) / 100;

/**
 * CPU seconds used by PostgreSQL processes (Linux), for per-request cost figures: all of them, or only one
 * cluster's (its postmaster, the postmaster's children, and its children that have exited) when given the
 * postmaster's pid.
 */
export function postgresCpuSeconds(postmaster?: number): number {
  let total = 0;
  for (const { pid, fields } of postgresProcesses()) {
    if (postmaster !== undefined && pid !== postmaster && Number(fields[1]) !== postmaster) continue;
    total += cpuSeconds(pid) || 0;
    // A backend that has exited (an idle connection closed, an autovacuum worker done) leaves the sum; its CPU
    // moves to the postmaster's reaped-children time, so counting that keeps the total from going backwards.
    if (pid === postmaster) total += cpuOf(fields, 13);
  }
  return total;
}

/**
 * CPU seconds per kind of PostgreSQL process of one cluster (Linux): the postmaster's children named by their
 * process title ("walwriter", "checkpointer", "autovacuum worker", a client backend as "backend"), for where
 * PostgreSQL's CPU goes besides the statements. Children that exit between two calls are lost to the sum.
 */
export function postgresCpuByKind(postmaster: number): Map<string, number> {
  const kinds = new Map<string, number>();
  for (const { pid, fields } of postgresProcesses()) {
    if (Number(fields[1]) !== postmaster) continue;
    let title: string;
    try {
      title = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
    } catch {
      continue; // gone
    }
    // "postgres: walwriter", "postgres: veritrail veritrail 127.0.0.1(40312) idle": a client backend names its user
    const rest = title.replace(/^postgres:\s*/, '');
    const kind = /\d+\.\d+\.\d+\.\d+\(\d+\)/.test(rest) ? 'backend' : rest.replace(/\s+\d.*$/, '');
    kinds.set(kind, (kinds.get(kind) ?? 0) + (cpuSeconds(pid) || 0));
  }
  return kinds;
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)];
}

export function machine(): string {
  return `${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}`;
}
