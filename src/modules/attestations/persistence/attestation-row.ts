/**
 * One attestation as read by ATTESTATION_SELECT (raw SQL, snake_case). `created_at` is Unix seconds with the
 * microseconds PostgreSQL stored.
 */
export interface AttestationRow {
  id: string;
  org_name: string;
  flow_name: string;
  trail_name: string;
  flow_seq: string | number;
  moment_number: number;
  name: string;
  artifact_name: string | null;
  artifact_fingerprint: string | null;
  attestation_type: string;
  schema_version: number;
  is_compliant: boolean;
  description: string;
  origin_url: string | null;
  external_urls: Record<string, { href: string; fingerprint?: string }> | null;
  annotations: Record<string, string> | null;
  user_data: unknown;
  git_commit_info: Record<string, unknown> | null;
  repo_info: Record<string, unknown> | null;
  data: Record<string, unknown> | null;
  /** lowercase hex, or null without attachment */
  evidence_sha256: string | null;
  evidence_filename: string | null;
  evidence_size: string | number | null;
  evidence_content_type: string | null;
  reported_by: string;
  created_at: number | string;
}

/**
 * Columns of AttestationRow. Use as `SELECT ${ATTESTATION_COLUMNS} ${ATTESTATION_FROM} WHERE ...`
 * (aliases: a = attestations, f = flows, t = trails, o = organizations).
 */
export const ATTESTATION_COLUMNS = `a.id, o.name AS org_name, f.name AS flow_name, t.name AS trail_name, a.flow_seq,
  a.moment_number, a.name, a.artifact_name, a.artifact_fingerprint, a.attestation_type, a.schema_version,
  a.is_compliant, a.description, a.origin_url, a.external_urls, a.annotations, a.user_data, a.git_commit_info,
  a.repo_info, a.data, encode(a.evidence_sha256, 'hex') AS evidence_sha256, a.evidence_filename, a.evidence_size,
  a.evidence_content_type, a.reported_by, EXTRACT(EPOCH FROM a.created_at)::float8 AS created_at`;

export const ATTESTATION_FROM = `FROM attestations a
  JOIN flows f ON f.id = a.flow_id
  JOIN trails t ON t.id = a.trail_id
  JOIN organizations o ON o.id = a.org_id`;
