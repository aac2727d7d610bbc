import { anyJson, arrayOf, boolean, describe, integer, mapOf, nullable, object, oneOf, pageOf, string, timestamp } from '../../../common/openapi/response-schema';

/** EvaluationResponse (evaluation.response.ts). */
export const EVALUATION_SCHEMA = object(
  {
    id: string,
    status: oneOf('pending', 'completed', 'failed'),
    requested_at: timestamp,
    recorded_at: timestamp,
    result: describe(anyJson, 'When completed: what the policy decided'),
    error: describe(object({ kind: string, message: string }), 'When failed'),
    decision_attestation_id: nullable(string),
    control: nullable(string),
    verification: object({
      policy_digest: string,
      trails: arrayOf(object({ flow_name: string, trail_name: string, moment_number: integer })),
      input_digest: nullable(string),
      result_digest: nullable(string),
      engine: nullable(string),
      engine_version: nullable(string),
      recorded_at: describe(string, 'recorded_at exactly (Unix seconds with microseconds)'),
    }),
  },
  ['result', 'error', 'decision_attestation_id'],
);

export const EVALUATION_PAGE_SCHEMA = pageOf(EVALUATION_SCHEMA);

const recordedAndReplayed = object({ recorded: nullable(string), replayed: nullable(string) });

/** ReplayResponse (replay-evaluation.command.ts). */
export const REPLAY_SCHEMA = object(
  {
    evaluation_id: string,
    identical: describe(boolean, 'The stored input and result digests were both reproduced'),
    input_digest: recordedAndReplayed,
    result_digest: recordedAndReplayed,
    error_kind: object({ recorded: string, replayed: nullable(string) }),
  },
  ['error_kind'],
);

/** A signed decision: DSSE v1 envelope whose payload is an in-toto Statement v1 with a SLSA VSA v1 predicate. */
export const DSSE_ENVELOPE_SCHEMA = describe(
  object({
    payloadType: describe(string, 'application/vnd.in-toto+json'),
    payload: describe(string, 'base64 of the statement\'s RFC 8785 canonical JSON'),
    signatures: arrayOf(object({ keyid: describe(string, "8 hex digits: the log key's note key id"), sig: describe(string, 'base64 Ed25519 over PAE(payloadType, payload)') })),
  }),
  'served as its RFC 8785 canonical JSON; the SHA-256 of those bytes is the record_sha256 of the evaluation\'s log entry (kind evaluation)',
);

/** EvaluationPolicyResponse (get-evaluation-policy.query.ts). */
export const EVALUATION_POLICY_SCHEMA = object({
  evaluation_id: string,
  digest: describe(string, "sha256:<hex>, the evaluation's verification.policy_digest"),
  files: describe(mapOf(string), 'Each file of the bundle by path, its text exactly as sent (a .wasm file as its base64 text)'),
  file_digests: describe(mapOf(string), "sha256 (hex) of each file's text by path; the bundle digest is the sha256 of their RFC 8785 canonical JSON"),
});
