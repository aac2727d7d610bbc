import { NextArtifact, OpenRun, SnapshotPlan } from './snapshot-plan';

/** An event about a snapshot, for the outbox (the org is added by the writer). */
export interface SnapshotEvent {
  type: 'snapshot.created' | 'artifact.started' | 'artifact.exited' | 'artifact.scaled' | 'environment.compliance_changed';
  subject: Record<string, unknown>;
  payload: Record<string, unknown>;
}

export interface SnapshotFacts {
  environment: string;
  environmentType: string;
  /** The logical environments this one is a member of. */
  logicalEnvironments: string[];
  includeScaling: boolean;
  number: number;
  /** Unix seconds. */
  timestamp: number;
  htmlUrl: string;
  artifactCount: number;
  instanceCount: number;
  /** The previous snapshot's compliance; null when this is the first. */
  wasCompliant: boolean | null;
}

/**
 * The events of one new snapshot, in this order: `snapshot.created`; `artifact.started`, `artifact.exited`,
 * `artifact.scaled` (only for environments that include scaling), each sorted by artifact name; then
 * `environment.compliance_changed` when the snapshot's compliance differs from the previous one's (the first
 * snapshot always has it, `was: null`). Shapes are documented in the module's README.
 */
export function snapshotEvents(plan: SnapshotPlan, facts: SnapshotFacts): SnapshotEvent[] {
  const subject = { environment: facts.environment, environment_type: facts.environmentType, logical_environments: facts.logicalEnvironments };
  const at = { snapshot: facts.number, timestamp: facts.timestamp, snapshot_url: facts.htmlUrl };
  const events: SnapshotEvent[] = [
    {
      type: 'snapshot.created',
      subject,
      payload: {
        ...at,
        compliant: plan.compliant,
        artifact_count: facts.artifactCount,
        instance_count: facts.instanceCount,
        artifact_compliance_count: plan.counts,
        started: plan.started.length,
        exited: plan.exited.length,
        scaled: plan.scaled.length,
      },
    },
  ];
  const byName = <T extends { name: string; fingerprint: string }>(list: T[]) =>
    [...list].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.fingerprint < b.fingerprint ? -1 : 1));
  const artifactSubject = (a: { name: string; fingerprint: string }) => ({ ...subject, artifact_name: a.name, fingerprint: a.fingerprint });
  for (const a of byName(plan.started)) {
    events.push({ type: 'artifact.started', subject: artifactSubject(a), payload: { ...at, ...running(a) } });
  }
  for (const r of byName(plan.exited)) {
    events.push({ type: 'artifact.exited', subject: artifactSubject(r), payload: { ...at, ...exited(r) } });
  }
  if (facts.includeScaling) {
    for (const { artifact, was } of byName(plan.scaled.map((s) => ({ ...s, name: s.artifact.name, fingerprint: s.artifact.fingerprint })))) {
      events.push({
        type: 'artifact.scaled',
        subject: artifactSubject(artifact),
        payload: { ...at, ...running(artifact), was, now: artifact.instanceCount },
      });
    }
  }
  if (facts.wasCompliant !== plan.compliant) {
    events.push({
      type: 'environment.compliance_changed',
      subject,
      payload: { ...at, compliant: plan.compliant, was: facts.wasCompliant, artifact_compliance_count: plan.counts },
    });
  }
  return events;
}

function running(a: NextArtifact) {
  return {
    artifact_name: a.name,
    fingerprint: a.fingerprint,
    instance_count: a.instanceCount,
    compliant: a.evaluation.compliant,
    has_provenance: a.evaluation.has_provenance,
    flows: a.evaluation.flows.map((f) => ({ flow_name: f.flow_name, trail_name: f.trail_name, trail_status: f.trail_status })),
  };
}

function exited(r: OpenRun) {
  return { artifact_name: r.name, fingerprint: r.fingerprint, instance_count: r.instanceCount, compliant: r.compliant, has_provenance: r.hasProvenance };
}
