import { arrayOf, boolean, describe, integer, nullable, object, string, timestamp } from '../../../common/openapi/response-schema';

const link = object({ self: string, html: string });

/** EnvironmentEventResponse (environment-event.response.ts). */
export const ENVIRONMENT_EVENT_SCHEMA = object(
  {
    environment_name: string,
    snapshot_index: integer,
    artifact_name: string,
    sha256: string,
    description: string,
    reported_at: timestamp,
    pipeline: string,
    deployments: arrayOf(integer),
    flows: arrayOf(object({ flow_name: string, deployments: { type: 'null' } })),
    repo_names: arrayOf(string),
    artifact_compliance: nullable(boolean),
    snapshot_compliance: boolean,
    type: string,
    code_diff: nullable(string),
    _links: object({ snapshot: link, artifact: link }, ['artifact']),
  },
  [],
);

export const ENVIRONMENT_EVENT_LIST_SCHEMA = describe(
  arrayOf(ENVIRONMENT_EVENT_SCHEMA),
  'Newest first; the headers X-Total-Count, X-Per-Page, X-Current-Page, X-Total-Pages and Link (when there is more than one page) tell the paging',
);

export const AUDIT_LOG_SCHEMA = describe(
  string,
  'CSV (RFC 4180, CRLF line ends): snapshot, reported_at (Unix seconds), type, artifact_name, fingerprint, description, flows and repos (joined with ;), artifact_compliance, snapshot_compliance',
);
