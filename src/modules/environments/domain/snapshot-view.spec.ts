import { evaluateArtifact } from './artifact-compliance';
import { diffRuns, runsAt, snapshotEntries, StoredRun } from './snapshot-view';

const run = (name: string, c: string, instanceCount: number, firstSnapshot: number, endedSnapshot: number | null): StoredRun => ({
  name,
  fingerprint: c.repeat(64),
  instanceCount,
  firstSnapshot,
  endedSnapshot,
  instances: [],
  evaluation: evaluateArtifact(c.repeat(64), [], false),
});

// web: 2 instances in 1-2, 3 from 3; db: 1-3 then gone; api: from 2.
const RUNS = [run('web', 'a', 2, 1, 3), run('web', 'a', 3, 3, null), run('db', 'b', 1, 1, 4), run('api', 'c', 1, 2, null)];

describe('snapshot view', () => {
  it('runsAt: first <= N < ended', () => {
    expect(runsAt(RUNS, 1).map((r) => r.name).sort()).toEqual(['db', 'web']);
    expect(runsAt(RUNS, 4).map((r) => `${r.name}${r.instanceCount}`).sort()).toEqual(['api1', 'web3']);
  });

  it('snapshotEntries: each artifact against the snapshot before', () => {
    const show = (n: number) => snapshotEntries(RUNS, n).map((e) => `${e.run.name} ${e.change} ${e.was}->${e.now}`);
    expect(show(1)).toEqual(['db started 0->1', 'web started 0->2']);
    expect(show(2)).toEqual(['api started 0->1', 'db unchanged 1->1', 'web unchanged 2->2']);
    expect(show(3)).toEqual(['api unchanged 1->1', 'db unchanged 1->1', 'web scaled 2->3']);
    expect(show(4)).toEqual(['api unchanged 1->1', 'db exited 1->0', 'web unchanged 3->3']);
  });

  it('diffRuns: added, removed, changed by (name, digest)', () => {
    const d = diffRuns(runsAt(RUNS, 1), runsAt(RUNS, 4));
    expect(d.added.map((e) => e.name)).toEqual(['api']);
    expect(d.removed.map((e) => e.name)).toEqual(['db']);
    expect(d.changed.map((e) => [e.name, e.from_instance_count, e.to_instance_count])).toEqual([['web', 2, 3]]);
  });
});
