import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EnvironmentGate } from '../../../environments/environments.module';
import { ArtifactDecision, PolicyGate } from '../../../policies/policies.module';
import { AssertEnvironmentsResponse } from '../../dto/assert.response';
import { ArtifactAssertions } from '../assert-artifact/artifact-assertions';
import { AssertArtifactEnvironmentsQuery } from './assert-artifact-environments.query';

/**
 * The answer `GET /asserts/{org}/fingerprint/{fingerprint}?environment_name=e` gives, for every environment of
 * the org that is not archived (logical ones too: they take no policies, so their flows decide), in a fixed
 * number of queries whatever the number of environments: the environments, their attached policies and the
 * artifact's allow-list entries (PolicyGate.rulesOfEach), and the artifact's evidence once. Environments
 * applying the same policy versions and the same allow-listing share one decision.
 * 400 fingerprint -> 404 artifact.
 */
@QueryHandler(AssertArtifactEnvironmentsQuery)
export class AssertArtifactEnvironmentsHandler implements IQueryHandler<AssertArtifactEnvironmentsQuery> {
  constructor(
    private readonly environments: EnvironmentGate,
    private readonly policies: PolicyGate,
    private readonly assertions: ArtifactAssertions,
  ) {}

  async execute(query: AssertArtifactEnvironmentsQuery): Promise<AssertEnvironmentsResponse> {
    const { orgId, orgName, fingerprint, flowName } = query.props;
    this.assertions.checkFingerprint(fingerprint);
    const [{ evidence, trails }, environments] = await Promise.all([
      this.assertions.evidence(orgId, orgName, fingerprint, flowName),
      this.environments.listActive(orgId),
    ]);
    const rules = await this.policies.rulesOfEach(orgId, environments.map((e) => e.id), [fingerprint]);
    const byFlows = this.assertions.byFlows(evidence);
    const decisions = new Map<string, ArtifactDecision>();
    return {
      ...trails,
      environments: environments.map((env) => {
        const applied = rules.get(env.id);
        if (!applied) return { environment_name: env.name, environment_type: env.type, scope: 'flow' as const, ...byFlows };
        const listing = applied.allowlist.get(fingerprint);
        const key = JSON.stringify([applied.policies.map((p) => [p.name, p.version]), listing ?? null]);
        let decision = decisions.get(key);
        if (!decision) {
          [decision] = this.policies.decide(applied.policies, [evidence], applied.allowlist);
          decisions.set(key, decision);
        }
        return { environment_name: env.name, environment_type: env.type, scope: 'environment' as const, ...this.assertions.byDecision(decision, env.name) };
      }),
    };
  }
}
