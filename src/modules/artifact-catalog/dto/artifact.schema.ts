import { anyJson, arrayOf, boolean, integer, JsonSchema, mapOf, nullable, object, oneOf, string, timestamp } from '../../../common/openapi/response-schema';

const hex = (length: number): JsonSchema => ({ type: 'string', pattern: `^[a-f0-9]{${length}}$` });

const EVIDENCE_SCHEMA = object(
  {
    evidence_type: string,
    is_compliant: boolean,
    created_at: timestamp,
    has_audit_package: boolean,
    description: nullable(string),
    user_data: anyJson,
    build_url: nullable(string),
    evidence_url: nullable(string),
    evidence_fingerprint: nullable(string),
    commit_sha: nullable(string),
  },
  ['description', 'user_data', 'build_url', 'evidence_url', 'evidence_fingerprint', 'commit_sha'],
);

const PLACEMENT_SCHEMA = object({ environment_name: string, snapshot_index: integer, timestamp });

/** ArtifactResponse (artifact.response.ts): the reference's shape; fields it requires are required here. */
export const ARTIFACT_SCHEMA = object(
  {
    id: string,
    flow_name: string,
    trail_name: nullable(string),
    template_reference_name: nullable(string),
    fingerprint: hex(64),
    filename: string,
    git_commit: nullable(string),
    git_commit_info: nullable(object({ sha1: string }, [])),
    repo_info: nullable(object({ name: string }, [])),
    commit_url: nullable(string),
    build_url: nullable(string),
    repo_url: nullable(string),
    html_url: nullable(string),
    api_url: nullable(string),
    created_at: timestamp,
    last_modified_at: timestamp,
    user_data: anyJson,
    external_urls: nullable(mapOf(object({ href: string }))),
    annotations: nullable(mapOf(anyJson)),
    state: nullable(oneOf('COMPLIANT', 'NON-COMPLIANT', 'INCOMPLETE')),
    state_info: nullable(string),
    deployments: arrayOf(integer),
    releases: arrayOf(integer),
    evidence: mapOf(EVIDENCE_SCHEMA),
    template: nullable(arrayOf(string)),
    running: arrayOf(PLACEMENT_SCHEMA),
    exited: arrayOf(PLACEMENT_SCHEMA),
    history: arrayOf(object({ event: string, timestamp })),
    commit_lead_times: mapOf(anyJson),
    build_lead_times: mapOf(anyJson),
  },
  // What the reference does not require; the CLI reads running, exited and history, so they are always sent.
  ['trail_name', 'template_reference_name', 'git_commit', 'git_commit_info', 'repo_info', 'commit_url', 'build_url', 'repo_url', 'html_url', 'api_url', 'user_data', 'external_urls', 'annotations', 'state', 'state_info', 'deployments', 'releases', 'template'],
);

export const ARTIFACT_LIST_SCHEMA = arrayOf(ARTIFACT_SCHEMA);

export const LATEST_COMMIT_SCHEMA = object({ latest_commit: nullable(string) });

const pageLinks = object({ self: string, first: string, last: string, next: nullable(string), prev: nullable(string) });

/** BuildPage (build.response.ts). */
export const BUILD_PAGE_SCHEMA = object({
  builds: arrayOf(
    object({
      created_at: timestamp,
      fingerprint: string,
      flow_name: string,
      trail_name: string,
      repo_info: nullable(object({ id: nullable(string), name: string, url: nullable(string), provider: nullable(string) })),
      _links: object({ artifact: string, trail: string }),
    }),
  ),
  page: integer,
  per_page: integer,
  total_pages: integer,
  total_count: integer,
  _links: pageLinks,
});
