import Ajv2020, { ErrorObject } from 'ajv/dist/2020';
import { compileWrapped, PolicyExpressionError } from '../../../../libs/policy-expression/src';
import { FieldErrors, ValidationError } from '../../../common/errors/app-error';
import { parseLimitedYaml, YamlLimitError, YamlLimits } from '../../../common/validation/limited-yaml';
import { ATTESTATION_TYPE_NAMES, POLICY_V1_SCHEMA } from './policy-schema';

/** A rule that is on or off, with the conditions that waive it. */
export interface BooleanRule {
  required: boolean;
  exceptions: Array<{ if: string | null }>;
}

/** One required attestation: `type` (a format type name, `*` or `custom:<name>`), `name` (`*` for any). */
export interface AttestationRule {
  type: string;
  name: string;
  if: string | null;
  must_be_compliant: boolean;
  /** Only with type `decision`: the control the decision must be about. */
  for_control: string | null;
}

/** A policy version as evaluated: the YAML with every default filled in. */
export interface PolicySpec {
  _schema: string;
  artifacts: {
    provenance: BooleanRule;
    'trail-compliance': BooleanRule;
    attestations: AttestationRule[];
  };
}

const YAML_LIMITS: YamlLimits = { maxAliasCount: 0, maxDepth: 16, refuseUnknownTags: true };
const ajv = new Ajv2020({ allErrors: true, strict: true });
const validate = ajv.compile(POLICY_V1_SCHEMA);
const SCHEMA_VERSION = /\/v([0-9]+)\/?$/;

/** `artifacts/attestations/0/type` -> `artifacts.attestations[0].type` under `field`. */
function pathOf(field: string, pointer: string, extra?: string): string {
  let out = field;
  const parts = pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) parts.push(extra);
  for (const p of parts) out += /^[0-9]+$/.test(p) ? `[${p}]` : `.${p}`;
  return out;
}

function messageOf(e: ErrorObject): string {
  switch (e.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'unknown field: it is not part of a version 1 policy';
    case 'type':
      return `must be ${(e.params as { type: string }).type}`;
    default:
      return e.message ?? 'is not valid';
  }
}

/** The schema's errors, one per path: the first that is not an `anyOf` summary, with plain wording for types. */
function schemaErrors(field: string, errors: ErrorObject[]): FieldErrors {
  const out: FieldErrors = {};
  for (const e of errors) {
    const extra = e.keyword === 'required' ? (e.params as { missingProperty: string }).missingProperty : e.keyword === 'additionalProperties' ? (e.params as { additionalProperty: string }).additionalProperty : undefined;
    const path = pathOf(field, e.instancePath, extra);
    if (/\/attestations\/[0-9]+\/type$/.test(e.instancePath)) {
      out[path] = `must be one of ${ATTESTATION_TYPE_NAMES}`;
      continue;
    }
    if (/\/if$/.test(e.instancePath)) {
      out[path] ??= 'must be an expression written ${{ ... }}';
      continue;
    }
    if (e.keyword === 'anyOf') continue;
    out[path] ??= messageOf(e);
  }
  return out;
}

/**
 * Reads a policy file: YAML within limits, checked against the v1 schema, its `_schema` major version, the
 * rules' own constraints and every expression's syntax. Every problem is reported at once, keyed by its path
 * under `field` (`policy_file.artifacts.attestations[1].if`); an expression's message gives its column.
 */
export function parsePolicy(source: string, field = 'policy_file'): PolicySpec {
  let root: unknown;
  try {
    root = parseLimitedYaml(source, YAML_LIMITS);
  } catch (error) {
    if (error instanceof YamlLimitError) throw new ValidationError({ [field]: error.message });
    throw error;
  }
  if (typeof root !== 'object' || root === null || Array.isArray(root)) throw new ValidationError({ [field]: 'must be a YAML mapping with _schema' });
  if (!validate(root)) throw new ValidationError(schemaErrors(field, validate.errors ?? []));
  const doc = root as { _schema: string; artifacts?: Record<string, any> };
  const errors: FieldErrors = {};
  const version = SCHEMA_VERSION.exec(doc._schema);
  if (!version) errors[`${field}._schema`] = 'must end with /v<major version>, e.g. https://docs.kosli.com/schemas/policy/v1';
  else if (version[1] !== '1') errors[`${field}._schema`] = `unknown major version v${version[1]}: this server reads v1`;
  const boolean = (key: 'provenance' | 'trail-compliance'): BooleanRule => {
    const rule = doc.artifacts?.[key] ?? {};
    return { required: rule.required ?? false, exceptions: (rule.exceptions ?? []).map((e: { if?: string | null }) => ({ if: e.if ?? null })) };
  };
  const spec: PolicySpec = {
    _schema: doc._schema,
    artifacts: {
      provenance: boolean('provenance'),
      'trail-compliance': boolean('trail-compliance'),
      attestations: (doc.artifacts?.attestations ?? []).map((a: Partial<AttestationRule>) => ({
        type: a.type!,
        name: a.name ?? '*',
        if: a.if ?? null,
        must_be_compliant: a.must_be_compliant ?? true,
        for_control: a.for_control ?? null,
      })),
    },
  };
  const checkExpression = (path: string, text: string | null) => {
    if (text === null) return;
    try {
      compileWrapped(text);
    } catch (error) {
      if (!(error instanceof PolicyExpressionError)) throw error;
      errors[path] = error.message;
    }
  };
  for (const key of ['provenance', 'trail-compliance'] as const) {
    spec.artifacts[key].exceptions.forEach((e, i) => checkExpression(`${field}.artifacts.${key}.exceptions[${i}].if`, e.if));
  }
  spec.artifacts.attestations.forEach((a, i) => {
    const at = `${field}.artifacts.attestations[${i}]`;
    if (a.type === '*' && a.name === '*') errors[at] = 'type and name cannot both be *: name an attestation or a type';
    if (a.for_control !== null && a.type !== 'decision') errors[`${at}.for_control`] = 'is only valid with type decision';
    checkExpression(`${at}.if`, a.if);
  });
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return spec;
}
