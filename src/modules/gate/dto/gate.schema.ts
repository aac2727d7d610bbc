import { anyJson, arrayOf, boolean, describe, integer, mapOf, nullable, number, object, oneOf, string, timestamp } from '../../../common/openapi/response-schema';

const SLOT = object({ attestation_name: string, attestation_type: nullable(string), status: oneOf('COMPLETE', 'MISSING'), is_compliant: nullable(boolean), unexpected: boolean });
const COMPLIANCE_STATUS = object({
  artifact_fingerprint: string,
  status: string,
  is_compliant: boolean,
  attestations_statuses: arrayOf(SLOT),
  evaluated_at: number,
  unexpected: boolean,
});
const RESOLUTION = object({ type: string, context: nullable(mapOf(anyJson)) });
const RULE_EVALUATION = object({
  rule: object({ type: oneOf('provenance', 'trail-compliance', 'attestation'), definition: mapOf(anyJson) }),
  satisfied: nullable(boolean),
  ignored: boolean,
  resolutions: arrayOf(RESOLUTION),
  reasons: arrayOf(string),
});
export const POLICY_EVALUATION_SCHEMA = object({
  policy_name: string,
  policy_version: integer,
  status: oneOf('COMPLIANT', 'NON-COMPLIANT'),
  rule_evaluations: arrayOf(RULE_EVALUATION),
});

const FLOWS = arrayOf(object({ flow: string, trail: string, compliant: boolean, compliance_status: COMPLIANCE_STATUS, html_url: string }));
const ALLOW_LISTING = nullable(object({ allowlist_id: string, allowed_by_user_id: string, timestamp, description: string }));
const REASONS = describe(arrayOf(string), 'Why the artifact is not compliant, in words (empty when it is)');

/** AssertArtifactResponse (assert.response.ts). */
export const ASSERT_SCHEMA = object({
  fingerprint: string,
  flow: string,
  trail: string,
  compliant: boolean,
  compliance_status: COMPLIANCE_STATUS,
  html_url: string,
  flows: FLOWS,
  scope: oneOf('flow', 'environment', 'policy'),
  environment: nullable(string),
  policy_evaluations: nullable(arrayOf(POLICY_EVALUATION_SCHEMA)),
  allow_listing: ALLOW_LISTING,
  reasons: REASONS,
});

/** AssertEnvironmentsResponse (assert.response.ts). */
export const ASSERT_ENVIRONMENTS_SCHEMA = object({
  fingerprint: string,
  flow: string,
  trail: string,
  compliance_status: COMPLIANCE_STATUS,
  html_url: string,
  flows: FLOWS,
  environments: describe(
    arrayOf(
      object({
        environment_name: string,
        environment_type: string,
        scope: describe(oneOf('flow', 'environment'), '`environment`: judged by its attached policies and allow-list; `flow`: it has no policy attached, the flows decide'),
        compliant: boolean,
        policy_evaluations: nullable(arrayOf(POLICY_EVALUATION_SCHEMA)),
        allow_listing: ALLOW_LISTING,
        reasons: REASONS,
      }),
    ),
    'Every environment not archived, by name: what `GET /asserts/{org}/fingerprint/{fingerprint}?environment_name=...` answers there',
  ),
});

export const POLICIES_CHANGED_SCHEMA = object({ environment: string, policies: arrayOf(string), snapshot: nullable(integer) });

export const ALLOWED_SCHEMA = object({ artifact_name: string, artifact_fingerprint: string, description: string });

export const ALLOWLIST_SCHEMA = arrayOf(
  object({ artifact_name: string, fingerprint: string, environment_name: string, timestamp, user_name: string, description: string }),
);

/** An admission.k8s.io/v1 AdmissionReview carrying the response. */
export const ADMISSION_REVIEW_SCHEMA = object({
  apiVersion: oneOf('admission.k8s.io/v1'),
  kind: oneOf('AdmissionReview'),
  response: object(
    {
      uid: string,
      allowed: boolean,
      status: object({ code: integer, reason: string, message: string }),
      warnings: arrayOf(string),
    },
    ['status', 'warnings'],
  ),
});

/** ControlCoverageResponse (control-coverage.response.ts). */
export const CONTROL_COVERAGE_SCHEMA = object({
  control: string,
  total: describe(integer, 'Environments not archived'),
  covered: describe(integer, 'Of those, the ones whose attached policies require a decision for the control'),
  coverage_percent: describe(number, 'covered / total x 100, to one decimal (0 without environments)'),
  environments: arrayOf(object({ environment_name: string, environment_type: string, covered: boolean, policies: arrayOf(string) })),
  page: integer,
  per_page: integer,
  total_pages: integer,
  total_count: describe(integer, 'Environments the search and covered filters keep'),
});
