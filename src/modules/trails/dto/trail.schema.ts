import { anyJson, arrayOf, boolean, integer, mapOf, nullable, object, oneOf, pageOf, string, timestamp } from '../../../common/openapi/response-schema';

const slotStatus = object({
  attestation_name: string,
  attestation_type: nullable(string),
  attestation_id: nullable(string),
  overridden_attestation_id: { type: ['string', 'null'] },
  status: oneOf('MISSING', 'COMPLETE'),
  is_compliant: nullable(boolean),
  unexpected: boolean,
});

const artifactStatus = object({
  artifact_fingerprint: nullable(string),
  artifact_id: nullable(string),
  artifact_filename: nullable(string),
  status: string,
  is_compliant: boolean,
  attestations_statuses: arrayOf(slotStatus),
  unexpected: boolean,
  evaluated_at: timestamp,
  flow_template_id: nullable(string),
});

/** TrailResponse (trail.response.ts). */
export const TRAIL_SCHEMA = object({
  name: string,
  description: string,
  git_commit_info: nullable(mapOf(anyJson)),
  origin_url: nullable(string),
  user_data: anyJson,
  repo_info: nullable(mapOf(anyJson)),
  repo_ids: arrayOf(string),
  external_urls: mapOf(object({ href: string, fingerprint: string }, ['fingerprint'])),
  last_modified_at: timestamp,
  created_at: timestamp,
  created_by: string,
  compliance_status: object({
    status: string,
    is_compliant: boolean,
    attestations_statuses: arrayOf(slotStatus),
    artifacts_statuses: mapOf(artifactStatus),
    evaluated_at: timestamp,
    flow_template_id: nullable(string),
  }),
  compliance_state: string,
  is_compliant: boolean,
  template: nullable(object({ version: oneOf(1), trail: anyJson, content: string })),
  template_id: nullable(string),
  last_moment: integer,
  events: arrayOf(anyJson),
  flow: object({ name: string, tags: mapOf(string) }),
  html_url: string,
});

export const TRAIL_PAGE_SCHEMA = pageOf(TRAIL_SCHEMA);

/** TrailMomentResponse: each slot is the stored attestation's fields with its status. */
export const TRAIL_MOMENT_SCHEMA = object({
  moment_number: integer,
  created_at: timestamp,
  template_id: nullable(string),
  compliance_status: mapOf(object({ status: oneOf('MISSING', 'COMPLETE'), is_compliant: nullable(boolean), unexpected: boolean })),
});
