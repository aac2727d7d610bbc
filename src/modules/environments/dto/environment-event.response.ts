import type { EventRow } from '../persistence/environment-event.reader';
import { snapshotUrl } from './snapshot.response';

/** One entry of `GET /environments/{org}/{env}/events`: the reference's shape (strings never null: the CLI reads them strictly). */
export interface EnvironmentEventResponse {
  environment_name: string;
  snapshot_index: number;
  artifact_name: string;
  sha256: string;
  description: string;
  reported_at: number;
  /** The first flow that reported the artifact (`''` without provenance): the reference's legacy name. */
  pipeline: string;
  deployments: number[];
  flows: Array<{ flow_name: string; deployments: null }>;
  repo_names: string[];
  artifact_compliance: boolean | null;
  snapshot_compliance: boolean;
  type: string;
  code_diff: string | null;
  _links: { snapshot: { self: string; html: string }; artifact?: { self: string; html: string } };
}

/** A page of the log, and what the paging headers say. */
export interface EnvironmentEventPage {
  events: EnvironmentEventResponse[];
  page: number;
  perPage: number;
  total: number;
}

const seg = encodeURIComponent;

export function toEnvironmentEventResponse(row: EventRow, env: string, org: string, base: string): EnvironmentEventResponse {
  const flow = row.flows[0];
  return {
    environment_name: env,
    snapshot_index: row.snapshot,
    artifact_name: row.artifact_name,
    sha256: row.fingerprint,
    description: row.description,
    reported_at: row.created_at,
    pipeline: flow ?? '',
    deployments: [],
    flows: row.flows.map((f) => ({ flow_name: f, deployments: null })),
    repo_names: row.repo_names,
    artifact_compliance: row.artifact_compliance,
    snapshot_compliance: row.snapshot_compliance,
    type: row.type,
    code_diff: null,
    _links: {
      snapshot: { self: `${base}/api/v2/snapshots/${seg(org)}/${seg(env)}/${row.snapshot}`, html: snapshotUrl(base, org, env, row.snapshot) },
      ...(flow && row.fingerprint
        ? {
            artifact: {
              self: `${base}/api/v2/artifacts/${seg(org)}/${seg(flow)}/fingerprint/${row.fingerprint}`,
              html: `${base}/${seg(org)}/flows/${seg(flow)}/artifacts/${row.fingerprint}`,
            },
          }
        : {}),
    },
  };
}

/** RFC 4180: a field with a comma, a quote, CR or LF is quoted, its quotes doubled; every other field as is. */
export function csvField(value: string | number | boolean | null): string {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const AUDIT_LOG_HEADER = [
  'snapshot',
  'reported_at',
  'type',
  'artifact_name',
  'fingerprint',
  'description',
  'flows',
  'repos',
  'artifact_compliance',
  'snapshot_compliance',
];

/** One CSV line (CRLF-terminated) of the audit log; lists are joined with `;`. */
export function auditLogLine(row: EventRow): string {
  return (
    [
      row.snapshot,
      row.created_at,
      row.type,
      row.artifact_name,
      row.fingerprint,
      row.description,
      row.flows.join(';'),
      row.repo_names.join(';'),
      row.artifact_compliance,
      row.snapshot_compliance,
    ]
      .map(csvField)
      .join(',') + '\r\n'
  );
}
