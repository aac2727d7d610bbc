import type { CatalogRow, RunRow } from '../persistence/artifact-catalog.reader';

export type ArtifactState = 'COMPLIANT' | 'NON-COMPLIANT' | 'INCOMPLETE';

/** One attestation of an artifact slot, as the reference's `evidence` map shows it. */
export interface ArtifactEvidence {
  evidence_type: string;
  is_compliant: boolean;
  created_at: number;
  has_audit_package: boolean;
  description: string | null;
  user_data: unknown;
  build_url: string | null;
  evidence_url: string | null;
  evidence_fingerprint: string | null;
  commit_sha: string | null;
}

/** An environment the artifact runs in (or exited from), as `kosli get artifact` prints it. */
export interface ArtifactPlacement {
  environment_name: string;
  /** Running: the environment's latest snapshot; exited: the snapshot it exited in. */
  snapshot_index: number;
  /** Unix seconds: since when it runs as it does now (started, or last scaled), or when it exited. */
  timestamp: number;
}

export interface ArtifactHistoryEvent {
  event: string;
  timestamp: number;
}

/** The reference's artifact shape (`GET /artifacts/...`), with Unix-second times. */
export interface ArtifactResponse {
  id: string;
  flow_name: string;
  trail_name: string;
  template_reference_name: string;
  fingerprint: string;
  filename: string;
  git_commit: string | null;
  git_commit_info: Record<string, unknown> | null;
  repo_info: Record<string, unknown> | null;
  commit_url: string | null;
  build_url: string | null;
  repo_url: string | null;
  html_url: string;
  api_url: string;
  created_at: number;
  last_modified_at: number;
  user_data: unknown;
  external_urls: Record<string, { href: string; fingerprint?: string }> | null;
  annotations: Record<string, unknown>;
  state: ArtifactState;
  state_info: string;
  deployments: number[];
  releases: number[];
  evidence: Record<string, ArtifactEvidence>;
  template: string[] | null;
  running: ArtifactPlacement[];
  exited: ArtifactPlacement[];
  history: ArtifactHistoryEvent[];
  commit_lead_times: Record<string, unknown>;
  build_lead_times: Record<string, unknown>;
}

/** What the trail says of one artifact: the trail's compliance and the attestations of the artifact's slots. */
export interface ArtifactCompliance {
  state: ArtifactState;
  evidence: Record<string, ArtifactEvidence>;
  /** The artifact names the trail's template expects, null without a template. */
  template: string[] | null;
}

const enc = encodeURIComponent;

export function artifactLinks(baseUrl: string, orgName: string, flowName: string, fingerprint: string) {
  return {
    html_url: `${baseUrl}/${enc(orgName)}/flows/${enc(flowName)}/artifacts/${fingerprint}`,
    api_url: `${baseUrl}/api/v2/artifacts/${enc(orgName)}/${enc(flowName)}/fingerprint/${fingerprint}`,
  };
}

/** Field by field from the stored report, its trail's compliance and its runs. */
export function toArtifactResponse(
  row: CatalogRow,
  compliance: ArtifactCompliance,
  runs: readonly RunRow[],
  links: { html_url: string; api_url: string },
): ArtifactResponse {
  const running = runs
    .filter((r) => r.running)
    .map((r) => ({ environment_name: r.environment_name, snapshot_index: r.last_snapshot, timestamp: r.since }));
  const exited = runs
    .filter((r) => !r.running && r.exited_snapshot !== null)
    .map((r) => ({ environment_name: r.environment_name, snapshot_index: r.exited_snapshot!, timestamp: r.exited_at ?? r.since }));
  const history: ArtifactHistoryEvent[] = [
    { event: `Reported to trail '${row.trail_name}' of flow '${row.flow_name}' as '${row.template_reference_name}'`, timestamp: row.created_at },
    ...runs.map((r) => ({ event: `Running in ${r.environment_name}#${r.since_snapshot}`, timestamp: r.since })),
    ...exited.map((e) => ({ event: `Exited from ${e.environment_name}#${e.snapshot_index}`, timestamp: e.timestamp })),
  ].sort((a, b) => a.timestamp - b.timestamp);
  return {
    id: row.id,
    flow_name: row.flow_name,
    trail_name: row.trail_name,
    template_reference_name: row.template_reference_name,
    fingerprint: row.fingerprint,
    filename: row.filename,
    git_commit: row.git_commit,
    git_commit_info: row.git_commit_info,
    repo_info: row.repo_info,
    commit_url: row.commit_url,
    build_url: row.build_url,
    repo_url: row.repo_url,
    html_url: links.html_url,
    api_url: links.api_url,
    created_at: row.created_at,
    last_modified_at: Math.max(row.created_at, ...history.map((h) => h.timestamp)),
    user_data: row.user_data ?? null,
    external_urls: row.external_urls,
    annotations: row.annotations ?? {},
    state: compliance.state,
    state_info: `The trail '${row.trail_name}' is ${compliance.state}`,
    deployments: [],
    releases: [],
    evidence: compliance.evidence,
    template: compliance.template,
    running,
    exited,
    history,
    commit_lead_times: {},
    build_lead_times: {},
  };
}
