import { AttestationTypeDefinition } from '../attestation-type';
import { DecisionData, SystemDecisionRequestDto } from './decision-attestation.request.dto';

/**
 * `decision`: the outcome of a control's assessment. Compliant when the decision says so; the control, the
 * violations and (for server-side evaluations) what the decision rests on are kept in the attestation's `data`.
 */
export const decisionAttestationType: AttestationTypeDefinition<DecisionData> = {
  name: 'decision',
  schemaVersion: 1,
  dataClass: SystemDecisionRequestDto as new () => DecisionData,
  acceptsAttachment: true,
  isCompliant: (data) => data.attestation_data.is_compliant,
  toRecord: (data) => ({
    attestationName: data.attestation_name,
    artifactFingerprint: data.artifact_fingerprint,
    targetArtifacts: data.target_artifacts,
    description: data.description,
    originUrl: data.origin_url,
    externalUrls: data.external_urls,
    annotations: data.annotations,
    userData: data.user_data,
    gitCommitInfo: data.git_commit_info ? { ...data.git_commit_info } : null,
    repoInfo: data.repo_info ? { ...data.repo_info } : null,
    extra: {
      control: data.control,
      ...(data.violations ? { violations: data.violations } : {}),
      ...(data.evaluation ? { evaluation: data.evaluation } : {}),
      ...(data.target_artifacts?.length ? { target_artifacts: data.target_artifacts } : {}),
    },
  }),
};
