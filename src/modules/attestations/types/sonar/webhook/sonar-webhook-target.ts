import { ValidationError } from '../../../../../common/errors/app-error';
import { nameProblem } from '../../../../../common/validation/names';
import { SonarAttestationRequestDto } from '../sonar-attestation.request.dto';

/** Scanner properties (`-Dsonar.analysis.kosli_*=...`) that say where the analysis is attested. */
export const PROPERTY = {
  flow: 'sonar.analysis.kosli_flow',
  trail: 'sonar.analysis.kosli_trail',
  attestation: 'sonar.analysis.kosli_attestation',
  commit: 'sonar.analysis.kosli_git_commit',
  fingerprint: 'sonar.analysis.kosli_artifact_fingerprint',
} as const;

export interface FlowNaming {
  flow_name_from: 'key' | 'name';
  flow_name_prefix: string;
  flow_name_suffix: string;
}

export interface SonarWebhookTarget {
  flowName: string;
  trailName: string;
  data: SonarAttestationRequestDto;
}

const SHA1 = /^[a-f0-9]{40}$/;
const FINGERPRINT = /^[a-f0-9]{64}$/;

/**
 * Where a SonarQube webhook payload is attested, from its scanner properties:
 * - flow: `kosli_flow`, else the hook's naming (prefix + project key or name + suffix, characters a flow name
 *   cannot hold replaced by `-`);
 * - trail: `kosli_trail`, else the analysis' revision;
 * - attestation name: `kosli_attestation`, else `sonar`; `<artifact>.<name>` targets that artifact's slot;
 * - commit: `kosli_git_commit`, else the revision when it is a git SHA; `kosli_artifact_fingerprint` binds it to
 *   a reported artifact.
 * An explicit value that is not a valid name is a 400 keyed `properties.<property>`.
 */
export function sonarWebhookTarget(payload: Record<string, unknown>, naming: FlowNaming): SonarWebhookTarget {
  const props = (typeof payload.properties === 'object' && payload.properties !== null ? payload.properties : {}) as Record<string, unknown>;
  const prop = (key: string) => (typeof props[key] === 'string' && (props[key] as string).trim() ? (props[key] as string).trim() : undefined);
  const project = (typeof payload.project === 'object' && payload.project !== null ? payload.project : {}) as Record<string, unknown>;
  const errors: Record<string, string> = {};
  const check = (kind: Parameters<typeof nameProblem>[0], value: string, key: string) => {
    const problem = nameProblem(kind, value);
    if (problem) errors[key] = problem;
  };

  let flowName = prop(PROPERTY.flow);
  if (flowName) check('flow', flowName, `properties.${PROPERTY.flow}`);
  else {
    const base = String((naming.flow_name_from === 'name' ? project.name || project.key : project.key) ?? '');
    flowName = `${naming.flow_name_prefix}${base}${naming.flow_name_suffix}`.replace(/[^a-zA-Z0-9.\-_~]/g, '-').replace(/^[^a-zA-Z0-9]+/, '');
    if (!flowName) errors['project.key'] = 'is required to name the flow when the kosli_flow property is not set';
  }

  const revision = typeof payload.revision === 'string' ? payload.revision : '';
  const trailName = prop(PROPERTY.trail) ?? revision;
  check('trail', trailName, prop(PROPERTY.trail) ? `properties.${PROPERTY.trail}` : 'revision');

  const fullName = prop(PROPERTY.attestation) ?? 'sonar';
  const [first, second, ...rest] = fullName.split('.');
  const artifact = second !== undefined ? first : null;
  const attestationName = second ?? first;
  if (rest.length || (artifact !== null && nameProblem('template_reference', artifact)) || nameProblem('attestation', attestationName)) {
    errors[`properties.${PROPERTY.attestation}`] = 'must be <attestation name> or <artifact name>.<attestation name>';
  }

  const commit = prop(PROPERTY.commit) ?? (SHA1.test(revision) ? revision : undefined);
  if (prop(PROPERTY.commit) && !SHA1.test(commit!)) errors[`properties.${PROPERTY.commit}`] = 'must be a git commit SHA (40 lowercase hex characters)';
  const fingerprint = prop(PROPERTY.fingerprint);
  if (fingerprint && !FINGERPRINT.test(fingerprint)) errors[`properties.${PROPERTY.fingerprint}`] = 'must be 64 lowercase hex characters';
  if (Object.keys(errors).length) throw new ValidationError(errors);

  const data = Object.assign(new SonarAttestationRequestDto(), {
    attestation_name: attestationName,
    sonar_results: payload,
    ...(artifact !== null ? { target_artifacts: [artifact] } : {}),
    ...(fingerprint ? { artifact_fingerprint: fingerprint } : {}),
    ...(commit ? { git_commit_info: { sha1: commit } } : {}),
    ...(typeof project.url === 'string' ? { origin_url: project.url } : {}),
  });
  return { flowName, trailName, data };
}
