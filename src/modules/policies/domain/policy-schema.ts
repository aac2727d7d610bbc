/**
 * The JSON Schema (draft 2020-12) of an environment policy, version 1, as this service reads it. It follows the
 * published v1 format with one difference of representation: an `if` is written in YAML as a string
 * `${{ ... }}`, so it is a string here (its syntax is then checked by the expression parser).
 * Attestation types are not limited to the types this server has registered: the format's names (`junit`,
 * `snyk` ...) are valid even before such attestations can be recorded.
 */
export const POLICY_V1_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'veritrail:policy/v1',
  type: 'object',
  additionalProperties: false,
  required: ['_schema'],
  properties: {
    _schema: { type: 'string', minLength: 1 },
    artifacts: {
      type: 'object',
      additionalProperties: false,
      properties: {
        provenance: { $ref: '#/$defs/booleanRule' },
        'trail-compliance': { $ref: '#/$defs/booleanRule' },
        attestations: { type: 'array', maxItems: 200, items: { $ref: '#/$defs/attestationRule' } },
      },
    },
  },
  $defs: {
    expression: { anyOf: [{ type: 'string', maxLength: 4200 }, { type: 'null' }] },
    booleanRule: {
      type: 'object',
      additionalProperties: false,
      properties: {
        required: { type: 'boolean' },
        exceptions: {
          type: 'array',
          maxItems: 200,
          items: { type: 'object', additionalProperties: false, properties: { if: { $ref: '#/$defs/expression' } } },
        },
      },
    },
    attestationRule: {
      type: 'object',
      additionalProperties: false,
      required: ['type'],
      properties: {
        type: {
          anyOf: [
            { enum: ['generic', 'junit', 'snyk', 'pull_request', 'jira', 'sonar', 'decision', '*'] },
            { type: 'string', pattern: '^custom:.+$' },
          ],
        },
        name: { type: 'string', minLength: 1, maxLength: 256 },
        if: { $ref: '#/$defs/expression' },
        must_be_compliant: { type: 'boolean' },
        for_control: { anyOf: [{ type: 'string', minLength: 1, maxLength: 256 }, { type: 'null' }] },
      },
    },
  },
} as const;

export const ATTESTATION_TYPE_NAMES = 'generic, junit, snyk, pull_request, jira, sonar, decision, * or custom:<name>';
