import { ArtifactEvaluation, complianceBucket } from './artifact-compliance';
import { artifactKeyText } from './report-summary';

/** A run still open in the latest snapshot: what the next snapshot is compared with. */
export interface OpenRun {
  name: string;
  fingerprint: string;
  instanceCount: number;
  evaluationHash: string;
  compliant: boolean;
  hasProvenance: boolean;
}

/** An artifact of the report that becomes the next snapshot, evaluated. */
export interface NextArtifact {
  name: string;
  fingerprint: string;
  instanceCount: number;
  evaluation: ArtifactEvaluation;
  evaluationHash: string;
}

export interface ComplianceCounts {
  true: number;
  false: number;
  null: number;
}

/**
 * What taking the next snapshot writes: the runs that end (`close`) and the runs that begin (`open`), and
 * what happened, for events. A run continues, at no cost, while its artifact keeps its instance count and its
 * evaluation; anything else ends it and begins another. Scaling is an event only for environments that
 * include scaling; a count that changed is recorded either way (the snapshot shows what was reported).
 */
export interface SnapshotPlan {
  close: OpenRun[];
  open: NextArtifact[];
  started: NextArtifact[];
  exited: OpenRun[];
  scaled: Array<{ artifact: NextArtifact; was: number }>;
  counts: ComplianceCounts;
  compliant: boolean;
}

export function planSnapshot(open: readonly OpenRun[], next: readonly NextArtifact[]): SnapshotPlan {
  const current = new Map(open.map((run) => [artifactKeyText(run.name, run.fingerprint), run]));
  const plan: SnapshotPlan = { close: [], open: [], started: [], exited: [], scaled: [], counts: { true: 0, false: 0, null: 0 }, compliant: true };
  const seen = new Set<string>();
  for (const artifact of next) {
    const key = artifactKeyText(artifact.name, artifact.fingerprint);
    seen.add(key);
    plan.counts[complianceBucket(artifact.evaluation)]++;
    const run = current.get(key);
    if (!run) {
      plan.started.push(artifact);
      plan.open.push(artifact);
      continue;
    }
    if (run.instanceCount !== artifact.instanceCount) plan.scaled.push({ artifact, was: run.instanceCount });
    if (run.instanceCount !== artifact.instanceCount || run.evaluationHash !== artifact.evaluationHash) {
      plan.close.push(run);
      plan.open.push(artifact);
    }
  }
  for (const [key, run] of current) {
    if (seen.has(key)) continue;
    plan.exited.push(run);
    plan.close.push(run);
  }
  plan.compliant = plan.counts.false === 0;
  return plan;
}
