import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EmbeddedPostgresRefused } from './embedded-postgres-refused';
import { takeSpawnMark } from './spawn-mark';

/**
 * A process named by its pid and its start time: a pid alone can be reused by an unrelated process after the
 * first one died, the pair cannot.
 */
export interface ProcessStamp {
  pid: number;
  started: string;
}

/** Who started the cluster in a data folder: the service process, and the postmaster it started. */
export interface OwnerRecord {
  service: ProcessStamp;
  postmaster: ProcessStamp;
}

/**
 * When `pid` started, or undefined if no such process runs (a zombie, dead but not yet reaped by its parent,
 * counts as not running). Linux: /proc; elsewhere: ps.
 */
export function processStarted(pid: number): string | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  if (fs.existsSync('/proc/self/stat')) {
    const fields = statFields(pid);
    // state is field 3 of the stat line, starttime field 22
    return !fields || fields[0] === 'Z' || fields[0] === 'X' ? undefined : fields[19];
  }
  try {
    const out = execFileSync('ps', ['-o', 'stat=', '-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return !out || out.startsWith('Z') ? undefined : out.slice(out.indexOf(' ') + 1).trim();
  } catch {
    return undefined;
  }
}

export function stampOf(pid: number): ProcessStamp | undefined {
  const started = processStarted(pid);
  return started === undefined ? undefined : { pid, started };
}

export function isRunning(stamp: ProcessStamp): boolean {
  return processStarted(stamp.pid) === stamp.started;
}

/** Whether `pid` is a PostgreSQL process; true where that cannot be told (so a live process is never ignored). */
function looksLikePostgres(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
  } catch {
    return !fs.existsSync('/proc/self/comm');
  }
}

const RECORD = 'pg-owner.json';

export function ownerRecordPath(dataDir: string): string {
  return path.join(dataDir, RECORD);
}

export function readOwnerRecord(dataDir: string): OwnerRecord | undefined {
  try {
    const record = JSON.parse(fs.readFileSync(ownerRecordPath(dataDir), 'utf8'));
    const valid = (s: unknown): s is ProcessStamp =>
      !!s && Number.isInteger((s as ProcessStamp).pid) && typeof (s as ProcessStamp).started === 'string';
    return valid(record?.service) && valid(record?.postmaster) ? record : undefined;
  } catch {
    return undefined;
  }
}

/** Written whole then renamed, so a crash leaves the old record or the new one, never half of one. */
export function writeOwnerRecord(dataDir: string, record: OwnerRecord): void {
  const file = ownerRecordPath(dataDir);
  const partial = `${file}.${process.pid}`;
  fs.writeFileSync(partial, JSON.stringify(record) + '\n', { mode: 0o644 });
  fs.renameSync(partial, file);
}

/** Removes the record if it still names this postmaster (a later starter may have replaced it). */
export function removeOwnerRecord(dataDir: string, postmaster: ProcessStamp): void {
  const current = readOwnerRecord(dataDir);
  if (current && current.postmaster.pid === postmaster.pid && current.postmaster.started === postmaster.started) {
    fs.rmSync(ownerRecordPath(dataDir), { force: true });
  }
}

/** What postmaster.pid says: the postmaster's pid (line 1) and its state (line 8: starting, ready, stopping). */
export function readLockFile(clusterDir: string): { pid: number; status: string } | undefined {
  try {
    const lines = fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n');
    const pid = Number(lines[0]);
    return Number.isInteger(pid) && pid > 0 ? { pid, status: (lines[7] ?? '').trim() } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The setting every postmaster this service starts carries on its command line (`-c veritrail.service=<pid>/<start>`,
 * a custom placeholder PostgreSQL accepts and ignores): which service process started it, readable from the
 * process list even when the owner record was never written (the service killed right after the spawn).
 */
export const SERVICE_SETTING = 'veritrail.service';

export function serviceSetting(service: ProcessStamp): string {
  return `${SERVICE_SETTING}=${service.pid}/${service.started}`;
}

/** A postmaster of this cluster found among running processes, and the service its command line names. */
export interface RunningPostmaster {
  postmaster: ProcessStamp;
  service: ProcessStamp;
}

/**
 * Postmasters serving `clusterDir` that a Veritrail service started (their command line holds `-D <clusterDir>` and
 * the service setting), found in /proc; none where there is no /proc (there, the owner record alone is relied on).
 */
export function findRunningPostmasters(clusterDir: string): RunningPostmaster[] {
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const found: Array<RunningPostmaster & { parent?: number }> = [];
  for (const name of pids) {
    let args: string[];
    try {
      args = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // gone, or not ours to read
    }
    const dir = args.indexOf('-D');
    if (dir < 0 || args[dir + 1] !== clusterDir) continue;
    const setting = args.find((arg) => arg.startsWith(`${SERVICE_SETTING}=`));
    const match = setting && /^(\d+)\/(.+)$/.exec(setting.slice(SERVICE_SETTING.length + 1));
    const postmaster = stampOf(Number(name));
    if (!match || !postmaster) continue;
    found.push({ postmaster, service: { pid: Number(match[1]), started: match[2] }, parent: parentOf(Number(name)) });
  }
  // A backend just forked by a postmaster still carries its command line: only the postmasters themselves.
  const pidsFound = new Set(found.map((f) => f.postmaster.pid));
  return found.filter((f) => f.parent === undefined || !pidsFound.has(f.parent)).map(({ postmaster, service }) => ({ postmaster, service }));
}

/** The parent's pid of a running process (Linux /proc), if it can be read. */
function parentOf(pid: number): number | undefined {
  const fields = statFields(pid);
  return fields ? Number(fields[1]) : undefined;
}

/**
 * The fields of /proc/<pid>/stat after the command name (in parentheses, which may hold anything), so that
 * element 0 is field 3 (state); undefined if the process is gone or cannot be read.
 */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

export interface ClusterFacts {
  /** The pid in postmaster.pid, if the file is there. */
  lockPid?: number;
  /** When the process with that pid started; undefined if none runs. */
  lockPidStarted?: string;
  lockPidIsPostgres: boolean;
  record?: OwnerRecord;
  /** When the process with the recorded service pid started; undefined if none runs. */
  serviceStarted?: string;
  /** When the process with the recorded postmaster pid started; undefined if none runs. */
  recordedPostmasterStarted?: string;
  /** Postmasters of this cluster started by a Veritrail service, found among running processes. */
  running?: Array<RunningPostmaster & { serviceAlive: boolean }>;
}

export type ClusterVerdict =
  | { action: 'start' }
  | { action: 'remove-stale-lock'; pid: number }
  | { action: 'stop-orphan'; postmaster: ProcessStamp; servicePid: number }
  | { action: 'refuse-in-use'; servicePid: number }
  | { action: 'refuse-foreign'; pid: number };

/**
 * What to do with a data folder before starting a cluster in it. Only a postmaster this service recorded starting
 * is ever stopped, and only once the service process that started it is gone; a live process the lock file names
 * is otherwise left alone.
 */
export function judgeCluster(facts: ClusterFacts): ClusterVerdict {
  const { lockPid, lockPidStarted, record } = facts;
  // A postmaster of this cluster that a service started, whatever the record and lock file say (the record is
  // written just after the spawn, the lock file by the postmaster once it runs: a kill in between leaves neither).
  for (const found of facts.running ?? []) {
    if (found.serviceAlive) return { action: 'refuse-in-use', servicePid: found.service.pid };
  }
  const orphan = facts.running?.[0];
  if (orphan) return { action: 'stop-orphan', postmaster: orphan.postmaster, servicePid: orphan.service.pid };
  // No lock file, or its postmaster is dead: PostgreSQL removes a stale lock file itself. But the postmaster this
  // service recorded may still be starting (spawned just before its service was killed) and not have written its
  // lock file yet: stopped like any orphan, or it would take the folder from under the new cluster.
  if (lockPid === undefined || lockPidStarted === undefined) {
    const starting = record !== undefined && facts.recordedPostmasterStarted !== undefined && facts.recordedPostmasterStarted === record.postmaster.started;
    if (!starting) return { action: 'start' };
    const serviceAlive = facts.serviceStarted !== undefined && facts.serviceStarted === record.service.started;
    return serviceAlive
      ? { action: 'refuse-in-use', servicePid: record.service.pid }
      : { action: 'stop-orphan', postmaster: record.postmaster, servicePid: record.service.pid };
  }
  if (record && record.postmaster.pid === lockPid && record.postmaster.started === lockPidStarted) {
    const serviceAlive = facts.serviceStarted !== undefined && facts.serviceStarted === record.service.started;
    return serviceAlive
      ? { action: 'refuse-in-use', servicePid: record.service.pid }
      : { action: 'stop-orphan', postmaster: record.postmaster, servicePid: record.service.pid };
  }
  // The pid now belongs to another process (reused after a reboot or a crash): the lock file is stale, unless that
  // process is a PostgreSQL, which may be serving this very folder.
  return facts.lockPidIsPostgres ? { action: 'refuse-foreign', pid: lockPid } : { action: 'remove-stale-lock', pid: lockPid };
}

export function inspectCluster(dataDir: string, clusterDir: string): ClusterFacts {
  const lock = readLockFile(clusterDir);
  const record = readOwnerRecord(dataDir);
  const lockPidStarted = lock ? processStarted(lock.pid) : undefined;
  return {
    lockPid: lock?.pid,
    lockPidStarted,
    lockPidIsPostgres: lockPidStarted !== undefined && looksLikePostgres(lock!.pid),
    record,
    serviceStarted: record ? processStarted(record.service.pid) : undefined,
    recordedPostmasterStarted: record ? processStarted(record.postmaster.pid) : undefined,
    running: findRunningPostmasters(clusterDir).map((found) => ({ ...found, serviceAlive: isRunning(found.service) })),
  };
}

export async function waitUntilGone(stamp: ProcessStamp, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isRunning(stamp)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    /* gone already */
  }
}

/**
 * Stops a postmaster that is not this process's child: fast shutdown (SIGINT: clients are disconnected, a
 * checkpoint is written), then immediate shutdown (SIGQUIT: crash recovery at next start), then SIGKILL, each
 * with a bounded wait. Resolves true once it is gone.
 */
export async function stopPostmaster(postmaster: ProcessStamp, waits = { fast: 30_000, immediate: 10_000, kill: 5_000 }): Promise<boolean> {
  for (const [name, ms] of [['SIGINT', waits.fast], ['SIGQUIT', waits.immediate], ['SIGKILL', waits.kill]] as const) {
    if (!isRunning(postmaster)) return true;
    signal(postmaster.pid, name);
    if (await waitUntilGone(postmaster, ms)) return true;
  }
  return !isRunning(postmaster);
}

/**
 * Makes the data folder ready for a new cluster start, or refuses in one line: a cluster left running by a service
 * that died (kill -9, OOM) is stopped; one in use by a live service, or started by something else, is left alone.
 */
export async function settleLeftoverCluster(dataDir: string, clusterDir: string, log: (line: string) => void): Promise<void> {
  // An orphan stopped, the folder is looked at again: a service killed during a restart can leave two.
  for (let round = 0; round < 5; round++) {
    if (!(await settleOnce(dataDir, clusterDir, log))) return;
  }
  throw new EmbeddedPostgresRefused(`Embedded PostgreSQL not started: PostgreSQL processes left running in ${clusterDir} kept appearing. Stop them, then start again.`);
}

/** Acts on what the folder holds now; answers true when it stopped an orphan (the folder is to be judged again). */
async function settleOnce(dataDir: string, clusterDir: string, log: (line: string) => void): Promise<boolean> {
  // A postmaster still being spawned (forked, not yet exec'd, by a service perhaps killed since) looks like its
  // service, not like PostgreSQL, and no record names it yet: once the mark is free, every one has become PostgreSQL.
  (await takeSpawnMark(clusterDir)).release();
  const verdict = judgeCluster(inspectCluster(dataDir, clusterDir));
  const lockFile = path.join(clusterDir, 'postmaster.pid');
  switch (verdict.action) {
    case 'start':
      return false;
    case 'refuse-in-use':
      throw new EmbeddedPostgresRefused(
        `Embedded PostgreSQL not started: another Veritrail process (pid ${verdict.servicePid}) is using the database in ${clusterDir}. Stop that process first, or give this one its own DATA_DIR.`,
      );
    case 'refuse-foreign':
      throw new EmbeddedPostgresRefused(
        `Embedded PostgreSQL not started: ${lockFile} names process ${verdict.pid}, a PostgreSQL this service did not start, which may be serving that folder. Stop it, or give this service its own DATA_DIR.`,
      );
    case 'remove-stale-lock':
      log(`removing ${lockFile}: process ${verdict.pid} it names is not PostgreSQL (the pid was reused)`);
      fs.rmSync(lockFile, { force: true });
      return false;
    case 'stop-orphan':
      log(`stopping PostgreSQL (pid ${verdict.postmaster.pid}) left running in ${clusterDir} by Veritrail process ${verdict.servicePid}, which is gone`);
      if (!(await stopPostmaster(verdict.postmaster))) {
        throw new EmbeddedPostgresRefused(
          `Embedded PostgreSQL not started: PostgreSQL (pid ${verdict.postmaster.pid}) left running in ${clusterDir} by a Veritrail process that died did not stop. Stop it, then start again.`,
        );
      }
      return true;
  }
}
