import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  ClusterFacts,
  judgeCluster,
  OwnerRecord,
  processStarted,
  readOwnerRecord,
  removeOwnerRecord,
  stopPostmaster,
  writeOwnerRecord,
} from './cluster-owner';

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
});
