import { Module } from '@nestjs/common';
import { ArtifactsModule } from '../artifacts/artifacts.module';
import { ControlsModule } from '../controls/controls.module';
import { EvidenceLogModule } from '../evidence-log/evidence-log.module';
import { TrailsModule } from '../trails/trails.module';
import { PutPolicyHandler } from './commands/put-policy/put-policy.handler';
import { AllowlistRepository } from './persistence/allowlist.repository';
import { AttachmentRepository } from './persistence/attachment.repository';
import { FlowTagsReader } from './persistence/flow-tags.reader';
import { PolicyReader } from './persistence/policy.reader';
import { PolicyRepository } from './persistence/policy.repository';
import { PolicyControlReferences } from './control-references';
import { PoliciesController } from './policies.controller';
import { PolicyGate } from './policy-gate';
import { PolicyVersionLogRenderer } from './policy-version-log-renderer';
import { GetPolicyHandler } from './queries/get-policy/get-policy.handler';
import { GetPolicyVersionHandler } from './queries/get-policy-version/get-policy-version.handler';
import { ListPoliciesHandler } from './queries/list-policies/list-policies.handler';

/**
 * Environment policies: immutable versions of a YAML policy (`PUT /policies/{org}`), what environments have
 * attached, allow-lists, and the judging of artifacts against them (README.md). Owns `policies`,
 * `policy_versions`, `environment_policies` and `allowlist_entries`.
 * Public surface: PolicyGate (attach, detach, rules of an environment, allow-lists, judge artifacts).
 */
@Module({
  imports: [ArtifactsModule, TrailsModule, ControlsModule, EvidenceLogModule],
  controllers: [PoliciesController],
  providers: [
    PolicyRepository,
    PolicyReader,
    AttachmentRepository,
    AllowlistRepository,
    FlowTagsReader,
    PolicyGate,
    PolicyVersionLogRenderer,
    PolicyControlReferences,
    PutPolicyHandler,
    GetPolicyHandler,
    GetPolicyVersionHandler,
    ListPoliciesHandler,
  ],
  exports: [PolicyGate],
})
export class PoliciesModule {}

export { PolicyGate } from './policy-gate';
export type { EnvironmentRules, ArtifactToJudge } from './policy-gate';
export type { ArtifactDecision, PolicyEvaluation, RuleEvaluation, AllowListing, ArtifactEvidence, EvidenceTrail, PolicyToApply, SlotStatus } from './domain/rule-evaluation';
export { parsePolicy } from './domain/policy-spec';
export type { AllowlistRow } from './persistence/allowlist.repository';
