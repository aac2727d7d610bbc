import { createHash } from 'node:crypto';

/**
 * One item of an environment report, whatever the type: a pod, a task, a container, a bucket, a function, a
 * path. Each (name, digest) entry of `digests` is one running instance of the artifact (name, digest);
 * `context` is what the type records about that instance besides its start time (pod name, task ARN ...).
 */
export interface ReportedItem {
  digests: Readonly<Record<string, string>>;
  startedAt: number;
  context: Record<string, unknown> | null;
}

/** One running instance of an artifact, as a snapshot keeps it. */
export interface ReportedInstance {
  started_at: number;
  context: Record<string, unknown> | null;
}

export interface ArtifactCount {
  name: string;
  /** 64 lowercase hex, or '' (an ECS container whose digest is unknown). */
  fingerprint: string;
  instanceCount: number;
}

/**
 * What decides whether a report changes anything: the distinct artifacts with their instance counts, sorted
 * (name, then fingerprint; code-unit order), and two hashes of them: `setHash` over the (name, digest) set,
 * `scaleHash` over the same with counts. Item order, duplicate entries across items and everything else an
 * item carries (pod names, start times) never change either hash.
 */
export interface ReportSummary {
  artifacts: ArtifactCount[];
  instanceCount: number;
  setHash: Buffer;
  scaleHash: Buffer;
}

export function summarizeReport(items: ReadonlyArray<Pick<ReportedItem, 'digests'>>): ReportSummary {
  const byName = new Map<string, Map<string, number>>();
  let instanceCount = 0;
  for (const item of items) {
    const digests = item.digests;
    for (const name of Object.keys(digests)) {
      const fingerprint = digests[name];
      let counts = byName.get(name);
      if (!counts) byName.set(name, (counts = new Map()));
      counts.set(fingerprint, (counts.get(fingerprint) ?? 0) + 1);
      instanceCount++;
    }
  }
  const artifacts: ArtifactCount[] = [];
  const set = createHash('sha256');
  const scale = createHash('sha256');
  for (const name of [...byName.keys()].sort(compare)) {
    const counts = byName.get(name)!;
    for (const fingerprint of [...counts.keys()].sort(compare)) {
      const instanceCount = counts.get(fingerprint)!;
      artifacts.push({ name, fingerprint, instanceCount });
      const line = JSON.stringify([name, fingerprint]);
      set.update(line).update('\n');
      scale.update(line).update(` ${instanceCount}\n`);
    }
  }
  return { artifacts, instanceCount, setHash: set.digest(), scaleHash: scale.digest() };
}

/** The instances of each artifact, keyed by `artifactKeyText(name, fingerprint)`, in report order. */
export function instancesByArtifact(items: readonly ReportedItem[]): Map<string, ReportedInstance[]> {
  const out = new Map<string, ReportedInstance[]>();
  for (const item of items) {
    for (const name of Object.keys(item.digests)) {
      const key = artifactKeyText(name, item.digests[name]);
      const instance: ReportedInstance = { started_at: item.startedAt, context: item.context };
      const list = out.get(key);
      if (list) list.push(instance);
      else out.set(key, [instance]);
    }
  }
  return out;
}

/** An artifact's identity within an environment, as text (unambiguous whatever the name holds). */
export function artifactKeyText(name: string, fingerprint: string): string {
  return JSON.stringify([name, fingerprint]);
}

/** The same identity as the 32 bytes stored (`artifact_key`): names may be longer than an index entry. */
export function artifactKey(name: string, fingerprint: string): Buffer {
  return createHash('sha256').update(artifactKeyText(name, fingerprint)).digest();
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
