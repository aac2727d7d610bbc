import { anyJson, arrayOf, boolean, describe, integer, mapOf, nullable, object, string, timestamp } from '../../../common/openapi/response-schema';

/** EnvironmentResponse (environment.response.ts). */
export const ENVIRONMENT_SCHEMA = object({
  org: string,
  name: string,
  type: string,
  description: string,
  include_scaling: boolean,
  require_provenance: boolean,
  state: describe(nullable(boolean), 'Compliance of the latest snapshot; null before the first'),
  last_reported_at: nullable(timestamp),
  last_modified_at: timestamp,
  last_changed_at: nullable(timestamp),
  last_snapshot: integer,
  tags: mapOf(string),
  policies: arrayOf(string),
  included_environments: arrayOf(string),
  created_by: string,
  created_at: timestamp,
  html_url: string,
  archived: boolean,
  archived_at: nullable(timestamp),
  history: arrayOf(object({ event: { enum: ['renamed'] }, from: string, to: string, by: string, timestamp })),
});

const links = object({ self: string, first: string, last: string, next: nullable(string), prev: nullable(string) });

/** An array, or the paged object when `page` or `per_page` is given. */
export const ENVIRONMENT_LIST_SCHEMA = {
  anyOf: [
    arrayOf(ENVIRONMENT_SCHEMA),
    object({ environments: arrayOf(ENVIRONMENT_SCHEMA), page: integer, per_page: integer, total_pages: integer, total_count: integer, _links: links }),
  ],
};

const snapshotFlow = object({
  flow_name: string,
  trail_name: string,
  template_reference_name: string,
  git_commit: string,
  commit_url: string,
  html_url: string,
  flow_html_url: string,
  trail_compliance_status: string,
  artifact_compliance_in_flow: boolean,
  flow_reasons_for_non_compliance: arrayOf(string),
});

const snapshotArtifact = object(
  {
    name: string,
    fingerprint: string,
    compliant: boolean,
    has_provenance: boolean,
    reasons_for_incompliance: arrayOf(string),
    deployments: arrayOf(anyJson),
    policy_decisions: arrayOf(anyJson),
    creationTimestamp: arrayOf(timestamp),
    instance_count: integer,
    annotation: object({ type: string, was: integer, now: integer }),
    flow_name: string,
    git_commit: string,
    commit_url: string,
    html_url: string,
    flow_html_url: string,
    flows: arrayOf(snapshotFlow),
    environment: describe(string, 'The member environment it runs in (a logical environment only)'),
  },
  ['environment'],
);

/** SnapshotResponse (snapshot.response.ts). */
export const SNAPSHOT_SCHEMA = object(
  {
    index: integer,
    environment: string,
    is_latest: boolean,
    next_snapshot_timestamp: nullable(timestamp),
    artifact_compliance_count: object({ true: integer, false: integer, null: integer }),
    timestamp,
    type: string,
    compliant: boolean,
    html_url: string,
    artifacts: arrayOf(snapshotArtifact),
    applied_policies: arrayOf(anyJson),
    members: arrayOf(object({ environment: string, index: integer, timestamp, compliant: boolean })),
  },
  ['members'],
);

export const SNAPSHOT_LIST_SCHEMA = arrayOf(
  object({
    index: integer,
    from: timestamp,
    to: describe(timestamp, '0 for the latest'),
    duration: number(),
    compliant: boolean,
    artifact_count: integer,
    instance_count: integer,
    html_url: string,
  }),
);

function number() {
  return { type: 'number', description: 'Seconds' };
}

const diffArtifact = object({ name: string, fingerprint: string, from_instance_count: integer, to_instance_count: integer, compliant: boolean, flows: arrayOf(string) });
const diffEnd = object({ expression: string, index: integer, timestamp });

/** SnapshotDiffResponse: artifacts added, removed and changed between two snapshots. */
export const SNAPSHOT_DIFF_SCHEMA = object({
  environment: string,
  from: diffEnd,
  to: diffEnd,
  added: arrayOf(diffArtifact),
  removed: arrayOf(diffArtifact),
  changed: arrayOf(diffArtifact),
});

const cliArtifact = object({
  fingerprint: string,
  flow: string,
  name: string,
  commit_url: string,
  most_recent_timestamp: timestamp,
  instance_count: integer,
  s1_instance_count: integer,
  s2_instance_count: integer,
  pods: arrayOf(string),
});
const artifacts = object({ artifacts: arrayOf(cliArtifact) });

/** CliDiffResponse: what `kosli diff snapshots` reads. */
export const ENV_DIFF_SCHEMA = object({
  snappish1: object({ snapshot_id: string, artifacts: arrayOf(cliArtifact) }),
  snappish2: object({ snapshot_id: string, artifacts: arrayOf(cliArtifact) }),
  changed: artifacts,
  'not-changed': artifacts,
});
