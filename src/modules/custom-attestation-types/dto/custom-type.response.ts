import type { CustomTypeRow, CustomTypeVersionRow } from '../persistence/custom-type.repository';

/** One version of a custom attestation type, as the CLI's `get attestation-type` prints it. */
export interface CustomTypeVersionResponse {
  version: number;
  /** Unix seconds */
  timestamp: number;
  created_by: string;
  description: string | null;
  type_schema: unknown | null;
  evaluator: { content_type: 'jq'; rules: string[] } | { content_type: 'default' };
  summary: Array<{ name: string; expression: string }>;
}

export interface CustomTypeResponse {
  name: string;
  /** The latest version's description. */
  description: string | null;
  org: string;
  archived: boolean;
  created_by: string;
  created_at: number;
  last_modified_at: number;
  /** Oldest first (the CLI reads the latest version number as their count). */
  versions: CustomTypeVersionResponse[];
}

export function toCustomTypeVersionResponse(v: CustomTypeVersionRow): CustomTypeVersionResponse {
  return {
    version: v.version,
    timestamp: Number(v.created_at),
    created_by: v.created_by,
    description: v.description,
    type_schema: v.type_schema,
    evaluator: v.jq_rules.length ? { content_type: 'jq', rules: v.jq_rules } : { content_type: 'default' },
    summary: v.summary,
  };
}

export function toCustomTypeResponse(row: CustomTypeRow, orgName: string, versions = row.versions): CustomTypeResponse {
  return {
    name: row.name,
    description: row.versions[row.versions.length - 1]?.description ?? null,
    org: orgName,
    archived: row.archived,
    created_by: row.created_by,
    created_at: Number(row.created_at),
    last_modified_at: Number(row.last_modified_at),
    versions: versions.map(toCustomTypeVersionResponse),
  };
}
