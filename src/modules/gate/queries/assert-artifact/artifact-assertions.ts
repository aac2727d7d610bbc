import { Injectable } from '@nestjs/common';
import { Clock } from '../../../../common/clock/clock';
import { AppConfig } from '../../../../common/config/app-config';
import { InjectConfig } from '../../../../common/config/config.decorators';
import { NotFoundError, ValidationError } from '../../../../common/errors/app-error';
import { AllowListing, ArtifactDecision, ArtifactEvidence, EvidenceTrail, PolicyGate } from '../../../policies/policies.module';
import { ArtifactComplianceStatus, AssertArtifactResponse, AssertFlowResponse } from '../../dto/assert.response';

const seg = encodeURIComponent;

/** What an assertion says of the artifact whatever judges it: its trails and their compliance. */
export type ArtifactTrails = Pick<AssertArtifactResponse, 'fingerprint' | 'flow' | 'trail' | 'compliance_status' | 'html_url' | 'flows'>;
/** What an assertion concludes. */
export type AssertionVerdict = Pick<AssertArtifactResponse, 'compliant' | 'policy_evaluations' | 'allow_listing' | 'reasons'>;

/**
 * The parts of `assert artifact` that the per-environment assertion and the one across environments share, so
 * both give the same answer: the artifact's evidence (404 when no trail reported it), its trails as the answer
 * shows them, and the verdict of the flows or of a policy decision.
 */
@Injectable()
export class ArtifactAssertions {
  constructor(
    private readonly policies: PolicyGate,
    private readonly clock: Clock,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  checkFingerprint(fingerprint: string): void {
    if (!/^[a-f0-9]{64}$/.test(fingerprint)) throw new ValidationError({ 'path.fingerprint': 'must be 64 lowercase hex characters (sha256)' });
  }

  /** The artifact's evidence (in `flowName` when given) and its trails; 404 when no trail reported it. */
  async evidence(orgId: string, orgName: string, fingerprint: string, flowName?: string): Promise<{ evidence: ArtifactEvidence; trails: ArtifactTrails }> {
    const [found] = await this.policies.evidenceOf(orgId, [{ name: '', fingerprint }], flowName);
    if (!found.trails.length) {
      throw new NotFoundError(`Artifact with fingerprint '${fingerprint}' not found${flowName !== undefined ? ` in flow '${flowName}'` : ''}`);
    }
    const evidence = { ...found, name: found.trails[0].artifactName ?? '' };
    const flows = evidence.trails.map((t) => this.flowOf(orgName, fingerprint, t));
    const first = flows[0];
    return { evidence, trails: { fingerprint, flow: first.flow, trail: first.trail, compliance_status: first.compliance_status, html_url: first.html_url, flows } };
  }

  /** The flow scope: compliant when every trail that reported the artifact is COMPLIANT. */
  byFlows(evidence: ArtifactEvidence): AssertionVerdict {
    const reasons = evidence.trails.filter((t) => t.status !== 'COMPLIANT').map((t) => `trail '${t.trail}' of flow '${t.flow}' is ${t.status}`);
    return { compliant: reasons.length === 0, policy_evaluations: null, allow_listing: null, reasons };
  }

  /** A policy decision as the answer shows it; `environmentName` names the allow-list entry. */
  byDecision(decision: ArtifactDecision, environmentName: string | undefined): AssertionVerdict {
    const listing: AllowListing | null = decision.allow_listing;
    return {
      compliant: decision.compliant,
      policy_evaluations: decision.policy_evaluations,
      allow_listing: listing
        ? { allowlist_id: `${environmentName}/${listing.fingerprint}`, allowed_by_user_id: listing.user_name, timestamp: listing.timestamp, description: listing.description }
        : null,
      reasons: decision.reasons,
    };
  }

  private flowOf(orgName: string, fingerprint: string, t: EvidenceTrail): AssertFlowResponse {
    const status: ArtifactComplianceStatus = {
      artifact_fingerprint: fingerprint,
      status: t.status,
      is_compliant: t.status === 'COMPLIANT',
      attestations_statuses: t.slots ?? [],
      evaluated_at: this.clock.now() / 1000,
      unexpected: false,
    };
    return {
      flow: t.flow,
      trail: t.trail,
      compliant: t.status === 'COMPLIANT',
      compliance_status: status,
      html_url: `${this.config.publicBaseUrl}/${seg(orgName)}/flows/${seg(t.flow)}/trails/${seg(t.trail)}`,
    };
  }
}
