import { ArtifactEvaluation } from './artifact-compliance';
import { artifactKeyText, ReportedInstance } from './report-summary';

/** A stored run (see the migration): one artifact, one count, one evaluation, over consecutive snapshots. */
export interface StoredRun {
  name: string;
  fingerprint: string;
  instanceCount: number;
  firstSnapshot: number;
  /** The first snapshot without it; null while it runs. */
  endedSnapshot: number | null;
  instances: ReportedInstance[];
  evaluation: ArtifactEvaluation;
}

export type ChangeKind = 'started' | 'exited' | 'scaled' | 'unchanged';

/** An artifact as snapshot N shows it, against snapshot N - 1. */
export interface SnapshotEntry {
  /** The run at N; for an exited artifact, its run at N - 1. */
  run: StoredRun;
  was: number;
  now: number;
  change: ChangeKind;
}

export function runsAt(runs: readonly StoredRun[], n: number): StoredRun[] {
  return runs.filter((r) => r.firstSnapshot <= n && (r.endedSnapshot === null || r.endedSnapshot > n));
}

/**
 * Snapshot N's artifacts from the runs that cover N or N - 1: those running at N, then those that exited at N
 * (now 0), each with its count before and after. Sorted by name, then fingerprint.
 */
export function snapshotEntries(runs: readonly StoredRun[], n: number): SnapshotEntry[] {
  const before = new Map(runsAt(runs, n - 1).map((r) => [artifactKeyText(r.name, r.fingerprint), r]));
  const out: SnapshotEntry[] = [];
  const seen = new Set<string>();
  for (const run of runsAt(runs, n)) {
    const key = artifactKeyText(run.name, run.fingerprint);
    seen.add(key);
    const was = before.get(key)?.instanceCount ?? 0;
    const change: ChangeKind = was === 0 ? 'started' : was !== run.instanceCount ? 'scaled' : 'unchanged';
    out.push({ run, was, now: run.instanceCount, change });
  }
  for (const [key, run] of before) if (!seen.has(key)) out.push({ run, was: run.instanceCount, now: 0, change: 'exited' });
  return out.sort((a, b) => compare(a.run.name, b.run.name) || compare(a.run.fingerprint, b.run.fingerprint) || a.now - b.now);
}

export interface DiffEntry {
  name: string;
  fingerprint: string;
  from_instance_count: number;
  to_instance_count: number;
  from: StoredRun | null;
  to: StoredRun | null;
}

/**
 * Two snapshots compared by artifact (name, digest): only in `to` (added), only in `from` (removed), in both
 * with another instance count (changed). A new digest under the same name is one removed and one added.
 */
export function diffRuns(
  from: readonly StoredRun[],
  to: readonly StoredRun[],
): { added: DiffEntry[]; removed: DiffEntry[]; changed: DiffEntry[]; unchanged: DiffEntry[] } {
  const a = new Map(from.map((r) => [artifactKeyText(r.name, r.fingerprint), r]));
  const b = new Map(to.map((r) => [artifactKeyText(r.name, r.fingerprint), r]));
  const entry = (x: StoredRun | null, y: StoredRun | null): DiffEntry => ({
    name: (x ?? y)!.name,
    fingerprint: (x ?? y)!.fingerprint,
    from_instance_count: x?.instanceCount ?? 0,
    to_instance_count: y?.instanceCount ?? 0,
    from: x,
    to: y,
  });
  const added: DiffEntry[] = [];
  const removed: DiffEntry[] = [];
  const changed: DiffEntry[] = [];
  const unchanged: DiffEntry[] = [];
  for (const [key, y] of b) {
    const x = a.get(key);
    if (!x) added.push(entry(null, y));
    else if (x.instanceCount !== y.instanceCount) changed.push(entry(x, y));
    else unchanged.push(entry(x, y));
  }
  for (const [key, x] of a) if (!b.has(key)) removed.push(entry(x, null));
  const order = (p: DiffEntry, q: DiffEntry) => compare(p.name, q.name) || compare(p.fingerprint, q.fingerprint);
  return { added: added.sort(order), removed: removed.sort(order), changed: changed.sort(order), unchanged: unchanged.sort(order) };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
