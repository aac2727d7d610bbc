import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../common/clock/clock';
import { AppConfig } from '../../../../common/config/app-config';
import { InjectConfig } from '../../../../common/config/config.decorators';
import { NotFoundError, ValidationError } from '../../../../common/errors/app-error';
import { EnvironmentGate } from '../../../environments/environments.module';
import { AllowListing, EvidenceTrail, PolicyGate, PolicyToApply } from '../../../policies/policies.module';
import { ArtifactComplianceStatus, AssertArtifactResponse, AssertFlowResponse } from '../../dto/assert.response';
import { AssertArtifactQuery } from './assert-artifact.query';

const seg = encodeURIComponent;

/**
 * Three scopes: an environment (its attached policies and allow-list; an environment without policies is
 * ignored and the flows decide, as in the reference), named policies, or neither (the artifact must be
 * compliant in every trail of its flows). `flow_name` narrows the trails looked at in every scope.
 * 400 both scopes -> 404 environment or policy -> 404 artifact.
 */
@QueryHandler(AssertArtifactQuery)
export class AssertArtifactHandler implements IQueryHandler<AssertArtifactQuery> {
  constructor(
    private readonly environments: EnvironmentGate,
    private readonly policies: PolicyGate,
    private readonly clock: Clock,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(query: AssertArtifactQuery): Promise<AssertArtifactResponse> {
    const { orgId, orgName, fingerprint, flowName, environmentName, policyNames } = query.props;
    if (environmentName !== undefined && policyNames.length) {
      throw new ValidationError({ policy_name: 'environment_name and policy_name are mutually exclusive: assert against one' });
    }
    if (!/^[a-f0-9]{64}$/.test(fingerprint)) throw new ValidationError({ 'path.fingerprint': 'must be 64 lowercase hex characters (sha256)' });
    let scope: AssertArtifactResponse['scope'] = 'flow';
    let policies: PolicyToApply[] = [];
    let allowlist: ReadonlyMap<string, AllowListing> = new Map();
    if (environmentName !== undefined) {
      const env = await this.environments.require(orgId, environmentName);
      const rules = await this.policies.rulesOf(orgId, env.id);
      if (rules) {
        scope = 'environment';
        policies = rules.policies;
        allowlist = rules.allowlist;
      }
    } else if (policyNames.length) {
      scope = 'policy';
      policies = await this.policies.byNames(orgId, policyNames);
    }
    const [found] = await this.policies.evidenceOf(orgId, [{ name: '', fingerprint }], flowName);
    if (!found.trails.length) {
      throw new NotFoundError(`Artifact with fingerprint '${fingerprint}' not found${flowName !== undefined ? ` in flow '${flowName}'` : ''}`);
    }
    const evidence = { ...found, name: found.trails[0].artifactName ?? '' };
    const flows = evidence.trails.map((t) => this.flowOf(orgName, fingerprint, t));
    const first = flows[0];
    const base = {
      fingerprint,
      flow: first.flow,
      trail: first.trail,
      compliance_status: first.compliance_status,
      html_url: first.html_url,
      flows,
      scope,
      environment: scope === 'environment' ? environmentName! : null,
    };
    if (scope === 'flow') {
      const reasons = evidence.trails.filter((t) => t.status !== 'COMPLIANT').map((t) => `trail '${t.trail}' of flow '${t.flow}' is ${t.status}`);
      return { ...base, compliant: reasons.length === 0, policy_evaluations: null, allow_listing: null, reasons };
    }
    const [decision] = this.policies.decide(policies, [evidence], allowlist);
    const listing = decision.allow_listing;
    return {
      ...base,
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
