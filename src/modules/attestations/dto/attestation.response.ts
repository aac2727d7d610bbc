import { AttestationRow } from '../persistence/attestation.reader';

export interface EvidenceResponse {
  sha256: string;
  filename: string;
  size: number;
  content_type: string;
  /** Path (under the deployment's base URL) that downloads the attachment. */
  download_url: string;
}

/**
 * An attestation on the wire: the spec's list-item fields first, then what a reader of the evidence needs.
 * Type-specific fields (a row's `data`) are added at the top level; the common fields win on a clash.
 */
export interface AttestationResponse {
  attestation_id: string;
  attestation_name: string;
  attestation_type: string;
  created_at: number;
  description: string;
  has_audit_package: boolean;
  html_url: string;
  is_compliant: boolean;
  origin_url: string;
  reported_by: string;
  schema_version: number;
  user_data: unknown;
  flow_name: string;
  trail_name: string;
  /** Artifact template name of the artifact slot this attestation fills (`<artifact_name>.<attestation_name>`), or null (trail slot). */
  artifact_name: string | null;
  artifact_fingerprint: string | null;
  /** Position in the flow: 1, 2, 3 ... (listing order). */
  attestation_number: number;
  /** The trail moment that recorded it. */
  moment_number: number;
  external_urls: Record<string, { href: string; fingerprint?: string }>;
  annotations: Record<string, string>;
  git_commit_info: Record<string, unknown> | null;
  repo_info: Record<string, unknown> | null;
  evidence: EvidenceResponse | null;
  [typeSpecific: string]: unknown;
}

const enc = encodeURIComponent;

/**
 * Maps a row read with `attestationRowsFrom` (persistence/attestation.reader.ts) to the response.
 * `publicBaseUrl` is AppConfig.publicBaseUrl (html_url and download links point at this deployment).
 */
export function toAttestationResponse(row: AttestationRow, publicBaseUrl: string): AttestationResponse {
  const trailPath = `${enc(row.org_name)}/${enc(row.flow_name)}/trail/${enc(row.trail_name)}`;
  const evidence: EvidenceResponse | null = row.evidence_sha256
    ? {
        sha256: row.evidence_sha256,
        filename: row.evidence_filename ?? '',
        size: Number(row.evidence_size ?? 0),
        content_type: row.evidence_content_type ?? 'application/octet-stream',
        download_url: `${publicBaseUrl}/api/v2/attestations/${trailPath}/attestation/${row.id}/evidence`,
      }
    : null;
  return {
    ...(row.data ?? {}),
    attestation_id: row.id,
    attestation_name: row.name,
    attestation_type: row.attestation_type,
    created_at: Number(row.created_at),
    description: row.description ?? '',
    has_audit_package: evidence !== null,
    html_url: `${publicBaseUrl}/${enc(row.org_name)}/flows/${enc(row.flow_name)}/trails/${enc(row.trail_name)}?attestation_id=${row.id}`,
    is_compliant: row.is_compliant,
    origin_url: row.origin_url ?? '',
    reported_by: row.reported_by,
    schema_version: row.schema_version,
    user_data: row.user_data ?? {},
    flow_name: row.flow_name,
    trail_name: row.trail_name,
    artifact_name: row.artifact_name,
    artifact_fingerprint: row.artifact_fingerprint,
    attestation_number: Number(row.flow_seq),
    moment_number: row.moment_number,
    external_urls: row.external_urls ?? {},
    annotations: row.annotations ?? {},
    git_commit_info: row.git_commit_info,
    repo_info: row.repo_info,
    evidence,
  };
}
