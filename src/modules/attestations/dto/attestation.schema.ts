import { anyJson, arrayOf, boolean, describe, integer, mapOf, nullable, object, pageOf, string, timestamp } from '../../../common/openapi/response-schema';

const evidence = object({ sha256: string, filename: string, size: integer, content_type: string, download_url: string });

/** AttestationResponse (attestation.response.ts); a type's own fields are added at the top level. */
export const ATTESTATION_SCHEMA = object({
  attestation_id: string,
  attestation_name: string,
  attestation_type: string,
  created_at: timestamp,
  description: string,
  has_audit_package: boolean,
  html_url: string,
  is_compliant: boolean,
  origin_url: string,
  reported_by: string,
  schema_version: integer,
  user_data: anyJson,
  flow_name: string,
  trail_name: string,
  artifact_name: nullable(string),
  artifact_fingerprint: nullable(string),
  attestation_number: describe(integer, 'Position in the flow: 1, 2, 3 ...'),
  moment_number: describe(integer, 'The trail moment that recorded it'),
  external_urls: mapOf(object({ href: string, fingerprint: string }, ['fingerprint'])),
  annotations: mapOf(string),
  git_commit_info: nullable(mapOf(anyJson)),
  repo_info: nullable(mapOf(anyJson)),
  evidence: nullable(evidence),
});

export const ATTESTATION_LIST_SCHEMA = arrayOf(ATTESTATION_SCHEMA);
export const ATTESTATION_PAGE_SCHEMA = pageOf(ATTESTATION_SCHEMA);
/** `list_attestations_for_criteria`: each commit asked for, with the attestations that name it. */
export const ATTESTATIONS_BY_COMMIT_SCHEMA = mapOf(ATTESTATION_LIST_SCHEMA);

/** The attachment as it was uploaded. */
export const EVIDENCE_FILE_SCHEMA = { type: 'string', contentMediaType: 'application/octet-stream' };
