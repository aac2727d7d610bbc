import { ArtifactEvaluation, complianceBucket } from '../domain/artifact-compliance';
import { DiffEntry, SnapshotEntry, StoredRun } from '../domain/snapshot-view';

const seg = encodeURIComponent;

export function snapshotUrl(base: string, org: string, env: string, number: number): string {
  return `${base}/${seg(org)}/environments/${seg(env)}/snapshots/${number}`;
}

export interface SnapshotFlowResponse {
  flow_name: string;
  trail_name: string;
  template_reference_name: string;
  git_commit: string;
  commit_url: string;
  html_url: string;
  flow_html_url: string;
  /** The trail's compliance when the snapshot was taken. */
  trail_compliance_status: string;
  artifact_compliance_in_flow: boolean;
  flow_reasons_for_non_compliance: string[];
}

/** One artifact of a snapshot: the reference's fields the CLI reads are never null. */
export interface SnapshotArtifactResponse {
  name: string;
  fingerprint: string;
  compliant: boolean;
  has_provenance: boolean;
  reasons_for_incompliance: string[];
  deployments: unknown[];
  policy_decisions: unknown[];
  /** One start time per instance (Unix seconds); empty for an artifact that exited in this snapshot. */
  creationTimestamp: number[];
  instance_count: number;
  annotation: { type: string; was: number; now: number };
  /** The first trail that reported it (flows sorted by name), or '' when none did. */
  flow_name: string;
  git_commit: string;
  commit_url: string;
  html_url: string;
  flow_html_url: string;
  flows: SnapshotFlowResponse[];
  /** The member environment it runs in (a logical environment's view only). */
  environment?: string;
  [typeSpecific: string]: unknown;
}

export interface SnapshotResponse {
  index: number;
  environment: string;
  is_latest: boolean;
  next_snapshot_timestamp: number | null;
  artifact_compliance_count: { true: number; false: number; null: number };
  timestamp: number;
  type: string;
  compliant: boolean;
  html_url: string;
  artifacts: SnapshotArtifactResponse[];
  applied_policies: unknown[];
  /** A logical environment's view: the member snapshots it is the union of. */
  members?: Array<{ environment: string; index: number; timestamp: number; compliant: boolean }>;
}

export interface Links {
  base: string;
  org: string;
}

function flowsOf(evaluation: ArtifactEvaluation, links: Links): SnapshotFlowResponse[] {
  return evaluation.flows.map((f) => {
    const flowUrl = `${links.base}/${seg(links.org)}/flows/${seg(f.flow_name)}`;
    return {
      flow_name: f.flow_name,
      trail_name: f.trail_name,
      template_reference_name: f.template_reference_name,
      git_commit: f.git_commit ?? '',
      commit_url: f.commit_url ?? '',
      html_url: `${flowUrl}/trails/${seg(f.trail_name)}`,
      flow_html_url: flowUrl,
      trail_compliance_status: f.trail_status,
      artifact_compliance_in_flow: f.trail_status === 'COMPLIANT',
      flow_reasons_for_non_compliance: f.trail_status === 'COMPLIANT' ? [] : [`trail '${f.trail_name}' is ${f.trail_status}`],
    };
  });
}

/** A snapshot artifact from its run; `present` adds the environment type's fields (pods, ecs_context). */
export function toSnapshotArtifact(
  entry: SnapshotEntry,
  present: (run: StoredRun) => Record<string, unknown>,
  links: Links,
  environment?: string,
): SnapshotArtifactResponse {
  const { run } = entry;
  const flows = flowsOf(run.evaluation, links);
  const first = flows[0];
  return {
    name: run.name,
    fingerprint: run.fingerprint,
    compliant: run.evaluation.compliant,
    has_provenance: run.evaluation.has_provenance,
    reasons_for_incompliance: run.evaluation.reasons,
    deployments: [],
    policy_decisions: run.evaluation.policy_decisions ?? [],
    ...(run.evaluation.allow_listing ? { allow_listing: run.evaluation.allow_listing } : {}),
    creationTimestamp: entry.now === 0 ? [] : run.instances.map((i) => i.started_at),
    instance_count: entry.now,
    annotation: { type: entry.change, was: entry.was, now: entry.now },
    flow_name: first?.flow_name ?? '',
    git_commit: first?.git_commit ?? '',
    commit_url: first?.commit_url ?? '',
    html_url: first?.html_url ?? '',
    flow_html_url: first?.flow_html_url ?? '',
    flows,
    ...(environment === undefined ? {} : { environment }),
    ...present(run),
  };
}

/** `artifact_compliance_count` of artifacts running (exited ones do not count). */
export function complianceCount(entries: readonly SnapshotEntry[]): { true: number; false: number; null: number } {
  const counts = { true: 0, false: 0, null: 0 };
  for (const e of entries) if (e.now > 0) counts[complianceBucket(e.run.evaluation)]++;
  return counts;
}

/** `GET /snapshots/{org}/{env}`: one item per snapshot, as the CLI's `list snapshots` reads it. */
export interface SnapshotListItem {
  index: number;
  /** When it was taken (Unix seconds). */
  from: number;
  /** When the next one was taken; 0 for the latest. */
  to: number;
  /** Seconds from `from` to `to` (to now, for the latest). */
  duration: number;
  compliant: boolean;
  artifact_count: number;
  instance_count: number;
  html_url: string;
}

export interface DiffArtifactResponse {
  name: string;
  fingerprint: string;
  from_instance_count: number;
  to_instance_count: number;
  compliant: boolean;
  flows: string[];
}

export interface SnapshotDiffResponse {
  environment: string;
  from: { expression: string; index: number; timestamp: number };
  to: { expression: string; index: number; timestamp: number };
  added: DiffArtifactResponse[];
  removed: DiffArtifactResponse[];
  changed: DiffArtifactResponse[];
}

export function toDiffArtifact(entry: DiffEntry): DiffArtifactResponse {
  const run = (entry.to ?? entry.from)!;
  return {
    name: entry.name,
    fingerprint: entry.fingerprint,
    from_instance_count: entry.from_instance_count,
    to_instance_count: entry.to_instance_count,
    compliant: run.evaluation.compliant,
    flows: [...new Set(run.evaluation.flows.map((f) => f.flow_name))],
  };
}
