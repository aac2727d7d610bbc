import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ValidationError } from '../../../../common/errors/app-error';
import { EnvironmentGate } from '../../../environments/environments.module';
import { AllowListing, PolicyGate, PolicyToApply } from '../../../policies/policies.module';
import { AssertArtifactResponse } from '../../dto/assert.response';
import { ArtifactAssertions } from './artifact-assertions';
import { AssertArtifactQuery } from './assert-artifact.query';

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
    private readonly assertions: ArtifactAssertions,
  ) {}

  async execute(query: AssertArtifactQuery): Promise<AssertArtifactResponse> {
    const { orgId, orgName, fingerprint, flowName, environmentName, policyNames } = query.props;
    if (environmentName !== undefined && policyNames.length) {
      throw new ValidationError({ policy_name: 'environment_name and policy_name are mutually exclusive: assert against one' });
    }
    this.assertions.checkFingerprint(fingerprint);
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
    const { evidence, trails } = await this.assertions.evidence(orgId, orgName, fingerprint, flowName);
    const verdict = scope === 'flow' ? this.assertions.byFlows(evidence) : this.assertions.byDecision(this.policies.decide(policies, [evidence], allowlist)[0], environmentName);
    // In the order the reference's answer has its fields.
    return {
      fingerprint,
      flow: trails.flow,
      trail: trails.trail,
      compliant: verdict.compliant,
      compliance_status: trails.compliance_status,
      html_url: trails.html_url,
      flows: trails.flows,
      scope,
      environment: scope === 'environment' ? environmentName! : null,
      policy_evaluations: verdict.policy_evaluations,
      allow_listing: verdict.allow_listing,
      reasons: verdict.reasons,
    };
  }
}
