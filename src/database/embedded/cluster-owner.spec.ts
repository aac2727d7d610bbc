import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  ClusterFacts,
  findRunningPostmasters,
  judgeCluster,
  OwnerRecord,
  processStarted,
  readOwnerRecord,
  removeOwnerRecord,
  serviceSetting,
  settleLeftoverCluster,
  stopPostmaster,
  writeOwnerRecord,
} from './cluster-owner';
import { spawnMarkName } from './spawn-mark';

const record: OwnerRecord = { service: { pid: 100, started: 's100' }, postmaster: { pid: 200, started: 'p200' } };

describe('judgeCluster: what a start does with a cluster already in its data folder', () => {
  const cases: Array<[string, ClusterFacts, ReturnType<typeof judgeCluster>]> = [
    ['no lock file', { lockPidIsPostgres: false }, { action: 'start' }],
    ['lock file of a dead postmaster (PostgreSQL removes it)', { lockPid: 200, lockPidIsPostgres: false, record }, { action: 'start' }],
    [
      'our postmaster, its service alive',
      { lockPid: 200, lockPidStarted: 'p200', lockPidIsPostgres: true, record, serviceStarted: 's100' },
      { action: 'refuse-in-use', servicePid: 100 },
    ],
    [
      'our postmaster, its service dead',
      { lockPid: 200, lockPidStarted: 'p200', lockPidIsPostgres: true, record },
      { action: 'stop-orphan', postmaster: record.postmaster, servicePid: 100 },
    ],
    [
      "our postmaster, the service's pid reused by another process",
      { lockPid: 200, lockPidStarted: 'p200', lockPidIsPostgres: true, record, serviceStarted: 'other' },
      { action: 'stop-orphan', postmaster: record.postmaster, servicePid: 100 },
    ],
    [
      "the postmaster's pid reused by a process that is not PostgreSQL",
      { lockPid: 200, lockPidStarted: 'later', lockPidIsPostgres: false, record, serviceStarted: 's100' },
      { action: 'remove-stale-lock', pid: 200 },
    ],
    [
      "the postmaster's pid reused by another PostgreSQL",
      { lockPid: 200, lockPidStarted: 'later', lockPidIsPostgres: true, record },
      { action: 'refuse-foreign', pid: 200 },
    ],
    [
      'no lock file yet, our postmaster still starting, its service dead',
      { lockPidIsPostgres: false, record, recordedPostmasterStarted: 'p200' },
      { action: 'stop-orphan', postmaster: record.postmaster, servicePid: 100 },
    ],
    [
      'no lock file yet, our postmaster still starting, its service alive',
      { lockPidIsPostgres: false, record, recordedPostmasterStarted: 'p200', serviceStarted: 's100' },
      { action: 'refuse-in-use', servicePid: 100 },
    ],
    ['no lock file, the recorded postmaster pid reused by another process', { lockPidIsPostgres: false, record, recordedPostmasterStarted: 'later' }, { action: 'start' }],
    ['a live PostgreSQL with no record (not started by Veritrail)', { lockPid: 300, lockPidStarted: 'x', lockPidIsPostgres: true }, { action: 'refuse-foreign', pid: 300 }],
    [
      'a live PostgreSQL other than the recorded one',
      { lockPid: 300, lockPidStarted: 'x', lockPidIsPostgres: true, record },
      { action: 'refuse-foreign', pid: 300 },
    ],
    [
      'no record and no lock file, a postmaster of this cluster running whose service is dead (killed between spawn and record)',
      { lockPidIsPostgres: false, running: [{ postmaster: { pid: 400, started: 'p400' }, service: { pid: 100, started: 's100' }, serviceAlive: false }] },
      { action: 'stop-orphan', postmaster: { pid: 400, started: 'p400' }, servicePid: 100 },
    ],
    [
      'the lock file names a postmaster the record does not, which a dead service started',
      { lockPid: 400, lockPidStarted: 'p400', lockPidIsPostgres: true, record, running: [{ postmaster: { pid: 400, started: 'p400' }, service: { pid: 101, started: 's101' }, serviceAlive: false }] },
      { action: 'stop-orphan', postmaster: { pid: 400, started: 'p400' }, servicePid: 101 },
    ],
    [
      'a postmaster of this cluster running for a live service, whatever the record says',
      { lockPidIsPostgres: false, record, running: [{ postmaster: { pid: 400, started: 'p400' }, service: { pid: 101, started: 's101' }, serviceAlive: true }] },
      { action: 'refuse-in-use', servicePid: 101 },
    ],
  ];
  it.each(cases)('%s', (_name, facts, verdict) => expect(judgeCluster(facts)).toEqual(verdict));
});

describe('process stamps and the owner record', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-owner-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a running process has a start time that does not change; a finished one has none', async () => {
    expect(processStarted(process.pid)).toEqual(expect.any(String));
    expect(processStarted(process.pid)).toBe(processStarted(process.pid));
    const child = spawn(process.execPath, ['-e', '']);
    const pid = child.pid!;
    await new Promise((resolve) => child.once('exit', resolve));
    expect(processStarted(pid)).toBeUndefined();
    expect(processStarted(-1)).toBeUndefined();
  });

  it('is read back as written, ignored when malformed, and removed only by the postmaster it names', () => {
    expect(readOwnerRecord(dir)).toBeUndefined();
    writeOwnerRecord(dir, record);
    expect(readOwnerRecord(dir)).toEqual(record);
    removeOwnerRecord(dir, { pid: 200, started: 'another' });
    expect(readOwnerRecord(dir)).toEqual(record);
    removeOwnerRecord(dir, record.postmaster);
    expect(readOwnerRecord(dir)).toBeUndefined();
    fs.writeFileSync(path.join(dir, 'pg-owner.json'), '{"service":{"pid":"1"}}');
    expect(readOwnerRecord(dir)).toBeUndefined();
  });

  it('stopPostmaster escalates to the next signal when one is ignored, within its bounded waits', async () => {
    // Ignores SIGINT (as a postmaster stuck in shutdown would), dies on SIGQUIT.
    const child = spawn(process.execPath, ['-e', "process.on('SIGINT', () => {}); process.stdout.write('ready'); setInterval(() => {}, 1000)"]);
    await new Promise((resolve) => child.stdout.once('data', resolve));
    const stamp = { pid: child.pid!, started: processStarted(child.pid!)! };
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    // What stopped it says which waits ran out: SIGINT's was exceeded, SIGQUIT ended it (no duration asserted).
    expect(await stopPostmaster(stamp, { fast: 300, immediate: 5_000, kill: 5_000 })).toBe(true);
    expect(await exited).toBe('SIGQUIT');
  });

  it('a process of this cluster whose service is gone is found by its command line and stopped, with no owner record at all', async () => {
    const clusterDir = path.join(dir, 'pg');
    const gone = { pid: 999_999_999, started: 'never' };
    // Stands in for a postmaster: its command line holds `-D <clusterDir>` and the service setting. It forks a
    // child with the same command line, as a postmaster's backend has until it renames itself.
    const script = [
      "const { spawn } = require('child_process');",
      "if (!process.env.BACKEND) { const b = spawn(process.execPath, [...process.execArgv, '--', ...process.argv.slice(1)], { env: { ...process.env, BACKEND: '1' }, stdio: ['ignore', 'pipe', 'ignore'] });",
      "  b.stdout.once('data', () => process.stdout.write('ready ' + b.pid)); process.on('SIGINT', () => { b.kill('SIGKILL'); process.exit(0); }); }",
      "else process.stdout.write('backend');",
      'setInterval(() => {}, 1000);',
    ].join('\n');
    const args = ['-e', script, '--', '-D', clusterDir, '-c', serviceSetting(gone)];
    const child = spawn(process.execPath, args);
    const other = spawn(process.execPath, [...args.slice(0, 4), path.join(dir, 'another'), ...args.slice(5)]);
    const ready = await Promise.all([child, other].map((c) => new Promise<string>((resolve) => c.stdout!.once('data', (d) => resolve(String(d))))));
    const [backend, otherBackend] = ready.map((line) => Number(line.split(' ')[1]));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      expect(processStarted(backend)).toEqual(expect.any(String)); // running, with the same command line
      expect(findRunningPostmasters(clusterDir)).toEqual([{ postmaster: { pid: child.pid, started: processStarted(child.pid!) }, service: gone }]);
      const lines: string[] = [];
      await settleLeftoverCluster(dir, clusterDir, (line) => lines.push(line));
      expect(await exited).toBe(0); // it took the fast shutdown (SIGINT), as any orphan gets
      expect(lines).toEqual([`stopping PostgreSQL (pid ${child.pid}) left running in ${clusterDir} by Veritrail process ${gone.pid}, which is gone`]);
      expect(findRunningPostmasters(clusterDir)).toEqual([]);
      expect(processStarted(other.pid!)).toEqual(expect.any(String)); // another folder's is left alone
    } finally {
      for (const pid of [child.pid!, other.pid!, backend, otherBackend]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* gone already */
        }
      }
    }
  }, 30_000);

  it('a postmaster still being spawned when its service was killed (forked, not yet exec\'d) is waited for, then stopped as an orphan', async () => {
    const clusterDir = path.join(dir, 'pg');
    const gone = { pid: 999_999_999, started: 'never' };
    // The service took the spawn mark and forked; the fork inherited it (here: passed as fd 3) and the service was
    // killed, its own copy going with it.
    const mark = net.createServer();
    await new Promise<void>((resolve) => mark.listen(spawnMarkName(clusterDir), resolve));
    const markFd = (mark as unknown as { _handle: { fd: number } })._handle.fd;
    // Until its exec the fork looks like its service (here: a shell whose command line names no cluster); then it is
    // a stand-in postmaster, and the exec closes the mark (here: its first act).
    const child = spawn('sh', ['-c', 'sleep 0.8; exec "$NODE" -e "$SCRIPT" -- -D "$CLUSTER" -c "$SETTING"'], {
      env: {
        ...process.env,
        NODE: process.execPath,
        SCRIPT: "process.on('SIGINT', () => process.exit(0)); require('fs').closeSync(3); setInterval(() => {}, 1000)",
        CLUSTER: clusterDir,
        SETTING: serviceSetting(gone),
      },
      stdio: ['ignore', 'ignore', 'ignore', markFd],
    });
    mark.close();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      expect(findRunningPostmasters(clusterDir)).toEqual([]); // nothing to see yet
      const lines: string[] = [];
      await settleLeftoverCluster(dir, clusterDir, (line) => lines.push(line));
      expect(lines).toEqual([`stopping PostgreSQL (pid ${child.pid}) left running in ${clusterDir} by Veritrail process ${gone.pid}, which is gone`]);
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);
});
