import type { PolicyEvaluation, SlotStatus } from '../../policies/policies.module';

/** The artifact in one trail: its status there and each attestation slot. */
export interface ArtifactComplianceStatus {
  artifact_fingerprint: string;
  status: string;
  is_compliant: boolean;
  attestations_statuses: SlotStatus[];
  evaluated_at: number;
  unexpected: boolean;
}

export interface AssertFlowResponse {
  flow: string;
  trail: string;
  compliant: boolean;
  compliance_status: ArtifactComplianceStatus;
  html_url: string;
}

/** The reference's assertion result; `reasons` says in words why it is not compliant (empty when it is). */
export interface AssertArtifactResponse {
  fingerprint: string;
  flow: string;
  trail: string;
  compliant: boolean;
  compliance_status: ArtifactComplianceStatus;
  html_url: string;
  flows: AssertFlowResponse[];
  scope: 'flow' | 'environment' | 'policy';
  environment: string | null;
  policy_evaluations: PolicyEvaluation[] | null;
  allow_listing: { allowlist_id: string; allowed_by_user_id: string; timestamp: number; description: string } | null;
  reasons: string[];
}

/** The gate's answer in one environment: what the assertion with `environment_name` concludes there. */
export interface EnvironmentAssertion {
  environment_name: string;
  environment_type: string;
  /** `environment` when its attached policies judged; `flow` when it has none (the flows decide). */
  scope: 'flow' | 'environment';
  compliant: boolean;
  policy_evaluations: AssertArtifactResponse['policy_evaluations'];
  allow_listing: AssertArtifactResponse['allow_listing'];
  reasons: string[];
}

/** The artifact's trails once, and the gate's answer in every environment not archived, by name. */
export interface AssertEnvironmentsResponse extends Pick<AssertArtifactResponse, 'fingerprint' | 'flow' | 'trail' | 'compliance_status' | 'html_url' | 'flows'> {
  environments: EnvironmentAssertion[];
}
