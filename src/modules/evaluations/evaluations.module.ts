import { Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../common/config/app-config';
import { ArtifactsModule } from '../artifacts/artifacts.module';
import { AttestationsModule } from '../attestations/attestations.module';
import { ControlsModule } from '../controls/controls.module';
import { LedgerModule } from '../ledger/ledger.module';
import { TrailsModule } from '../trails/trails.module';
import { CreateEvaluationHandler } from './commands/create-evaluation/create-evaluation.handler';
import { ReplayEvaluationHandler } from './commands/replay-evaluation/replay-evaluation.handler';
import { EvaluationsController } from './evaluations.controller';
import { EvaluationPolicyRepository } from './persistence/evaluation-policy.repository';
import { EvaluationRepository } from './persistence/evaluation.repository';
import { GetEvaluationHandler } from './queries/get-evaluation/get-evaluation.handler';
import { ListEvaluationsHandler } from './queries/list-evaluations/list-evaluations.handler';
import { EvaluationJobs } from './running/evaluation-jobs';
import { EvaluationRunner } from './running/evaluation-runner';
import { PolicyEngines } from './running/policy-engine';
import { RegoEngine } from './running/rego-engine';
import { WasmEngine } from './running/wasm-engine';
import { EvidenceLogModule } from '../evidence-log/evidence-log.module';
import { EvaluationEnvelopeRepository } from './persistence/evaluation-envelope.repository';
import { DecisionSigner } from './signing/decision-signer';
import { EvaluationArchive } from './evaluation-archive';
import { GetEvaluationAttestationHandler } from './queries/get-evaluation-attestation/get-evaluation-attestation.handler';
import { GetEvaluationPolicyHandler } from './queries/get-evaluation-policy/get-evaluation-policy.handler';

/**
 * Evaluations: a policy bundle run on the server against trails pinned at one instant, its outcome recorded
 * (and, with `decision`, written as a decision attestation) with everything needed to check and replay it.
 * Owns `evaluations`, `evaluation_policies` and `evaluation_envelopes`. Public surface: EvaluationArchive (the
 * evaluations that covered a trail, their signed statements and bundles, for audit packages).
 */
@Module({
  imports: [LedgerModule, TrailsModule, ArtifactsModule, AttestationsModule, ControlsModule, EvidenceLogModule],
  controllers: [EvaluationsController],
  providers: [
    EvaluationRepository,
    EvaluationPolicyRepository,
    {
      provide: PolicyEngines,
      useFactory: (config: AppConfig) => new PolicyEngines(new RegoEngine(config.evaluations), new WasmEngine(config.evaluations)),
      inject: [APP_CONFIG],
    },
    EvaluationRunner,
    EvaluationJobs,
    CreateEvaluationHandler,
    ReplayEvaluationHandler,
    GetEvaluationHandler,
    ListEvaluationsHandler,
    EvaluationEnvelopeRepository,
    DecisionSigner,
    GetEvaluationAttestationHandler,
    GetEvaluationPolicyHandler,
    EvaluationArchive,
  ],
  exports: [EvaluationArchive],
})
export class EvaluationsModule {}

export { EvaluationArchive } from './evaluation-archive';
export type { ArchivedEvaluation } from './evaluation-archive';
