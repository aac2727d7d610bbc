import { FieldErrors, ValidationError } from '../../../common/errors/app-error';
import { parseLimitedYaml, YamlLimitError, YamlLimits } from '../../../common/validation/limited-yaml';

/** One expected attestation: its slot name and the attestation type that should fill it. */
export interface TemplateAttestation {
  name: string;
  type: string;
}

export interface TemplateArtifact {
  name: string;
  attestations: TemplateAttestation[];
}

/** A parsed, validated flow template (YAML `version: 1`). Names may repeat; see compliance slot keys. */
export interface FlowTemplateSpec {
  version: 1;
  trail: {
    attestations: TemplateAttestation[];
    artifacts: TemplateArtifact[];
  };
}

export const TEMPLATE_ATTESTATION_NAME = /^[a-zA-Z0-9][a-zA-Z0-9\-_,]*$/;
export const TEMPLATE_ARTIFACT_NAME = /^[a-zA-Z0-9][a-zA-Z0-9\-_]*$/;
/** `generic`, `junit`, `decision`, `custom:<type-name>` ... */
export const TEMPLATE_ATTESTATION_TYPE = /^([a-z]+:)?[a-zA-Z0-9][a-zA-Z0-9\-_.]*$/;

export const EMPTY_TEMPLATE: FlowTemplateSpec = { version: 1, trail: { attestations: [], artifacts: [] } };

/**
 * A template is a small mapping (`version`, `trail`, its lists of attestations and artifacts): it needs no
 * aliases and no more than a few levels, so aliases are refused and nesting is capped well above what a
 * valid template uses.
 */
export const TEMPLATE_YAML_LIMITS: YamlLimits = { maxAliasCount: 0, maxDepth: 16, refuseUnknownTags: true };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Parses and validates a template file. Every problem is reported under its path, prefixed with `field`
 * (`template_file.trail.artifacts[0].attestations[1].type`), in one 400.
 */
export function parseFlowTemplate(source: string, field = 'template_file'): FlowTemplateSpec {
  const errors: FieldErrors = {};
  let root: unknown;
  try {
    root = parseLimitedYaml(source, TEMPLATE_YAML_LIMITS);
  } catch (error) {
    if (error instanceof YamlLimitError) throw new ValidationError({ [field]: error.message });
    throw error;
  }
  if (!isObj(root)) throw new ValidationError({ [field]: 'must be a YAML mapping with version and trail' });

  unknownKeys(root, ['version', 'trail'], field, errors);
  if (root.version === undefined) errors[`${field}.version`] = 'is required';
  else if (root.version !== 1 && root.version !== '1') errors[`${field}.version`] = 'must be 1';

  const spec: FlowTemplateSpec = { version: 1, trail: { attestations: [], artifacts: [] } };
  const trailPath = `${field}.trail`;
  // `version: 1` alone is a valid, empty template (the CLI's --use-empty-template sends exactly that).
  if (root.trail !== undefined && root.trail !== null && !isObj(root.trail)) errors[trailPath] = 'must be a mapping';
  else if (isObj(root.trail)) {
    const trail = root.trail;
    unknownKeys(trail, ['attestations', 'artifacts'], trailPath, errors);
    spec.trail.attestations = attestationList(trail.attestations, `${trailPath}.attestations`, errors);
    const artifacts = trail.artifacts;
    const artifactsPath = `${trailPath}.artifacts`;
    if (artifacts !== undefined && artifacts !== null) {
      if (!Array.isArray(artifacts)) errors[artifactsPath] = 'must be a list';
      else {
        artifacts.forEach((item, i) => {
          const path = `${artifactsPath}[${i}]`;
          if (!isObj(item)) {
            errors[path] = 'must be a mapping with name and attestations';
            return;
          }
          unknownKeys(item, ['name', 'attestations'], path, errors);
          const name = checkName(item.name, `${path}.name`, TEMPLATE_ARTIFACT_NAME, errors);
          const attestations = attestationList(item.attestations, `${path}.attestations`, errors);
          if (name !== null) spec.trail.artifacts.push({ name, attestations });
        });
      }
    }
  }
  if (Object.keys(errors).length) throw new ValidationError(errors, 'Invalid flow template');
  return spec;
}

function attestationList(value: unknown, path: string, errors: FieldErrors): TemplateAttestation[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    errors[path] = 'must be a list';
    return [];
  }
  const out: TemplateAttestation[] = [];
  value.forEach((item, i) => {
    const itemPath = `${path}[${i}]`;
    if (!isObj(item)) {
      errors[itemPath] = 'must be a mapping with name and type';
      return;
    }
    unknownKeys(item, ['name', 'type'], itemPath, errors);
    const name = checkName(item.name, `${itemPath}.name`, TEMPLATE_ATTESTATION_NAME, errors);
    const type = checkName(item.type, `${itemPath}.type`, TEMPLATE_ATTESTATION_TYPE, errors);
    if (name !== null && type !== null) out.push({ name, type });
  });
  return out;
}

/** Longest name (artifact, attestation, type) a template may hold: the API's limit for names (docs/choices.md). */
export const TEMPLATE_NAME_MAX_LENGTH = 256;

function checkName(value: unknown, path: string, pattern: RegExp, errors: FieldErrors): string | null {
  if (value === undefined || value === null) {
    errors[path] = 'is required';
    return null;
  }
  if (typeof value !== 'string') {
    errors[path] = 'must be a string';
    return null;
  }
  if (value.length > TEMPLATE_NAME_MAX_LENGTH) {
    errors[path] = `must be shorter than or equal to ${TEMPLATE_NAME_MAX_LENGTH} characters`;
    return null;
  }
  if (!pattern.test(value)) {
    errors[path] = `must match ${pattern}`;
    return null;
  }
  return value;
}

function unknownKeys(obj: Obj, allowed: string[], path: string, errors: FieldErrors): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) errors[`${path}.${key}`] = 'unknown field: it is not part of a version 1 template';
  }
}
