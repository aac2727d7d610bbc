import { Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../common/config/app-config';
import { ArtifactsModule } from '../artifacts/artifacts.module';
import { EvidenceLogModule } from '../evidence-log/evidence-log.module';
import { FlowsModule } from '../flows/flows.module';
import { LedgerModule } from '../ledger/ledger.module';
import { OutboxModule } from '../outbox/outbox.module';
import { ReposModule } from '../repos/repos.module';
import { AttestationsController } from './attestations.controller';
import { AttestMultipartHandler } from './commands/attest-multipart/attest-multipart.handler';
import { AttestationReader } from './persistence/attestation.reader';
import { AttestationSearchReader } from './persistence/attestation-search.reader';
import { GetArtifactAttestationHandler } from './queries/get-artifact-attestation/get-artifact-attestation.handler';
import { ListAttestationsForCriteriaHandler } from './queries/list-attestations-for-criteria/list-attestations-for-criteria.handler';
import { AttestationRepository } from './persistence/attestation.repository';
import { EvidenceStore, PostgresEvidenceStore } from './persistence/evidence.store';
import { S3EvidenceStore } from './persistence/s3-evidence.store';
import { FindOrgAttestationHandler } from './queries/find-org-attestation/find-org-attestation.handler';
import { GetAttestationEvidenceHandler } from './queries/get-attestation-evidence/get-attestation-evidence.handler';
import { OpenAttestationEvidenceHandler } from './queries/open-attestation-evidence/open-attestation-evidence.handler';
import { ListFlowAttestationsHandler } from './queries/list-flow-attestations/list-flow-attestations.handler';
import { ListSlotVersionsHandler } from './queries/list-slot-versions/list-slot-versions.handler';
import { AttestationBatcher } from './recording/attestation-batcher';
import { AttestationRecorder } from './recording/attestation-recorder';
import { AttestationTypeRegistry } from './types/attestation-type.registry';
import { AttestationUploadPipe } from './upload/attestation-upload.pipe';
import { DecisionRecorder } from './types/decision/decision-recorder';

/**
 * Attestations: the type registry, the one write path (AttestationRecorder, with group commit in
 * AttestationBatcher), the evidence store and the read routes. Owns `attestations`,
 * `flow_attestation_counters` and `evidence_blobs`.
 * Public surface: AttestationTypeRegistry, AttestationBatcher and AttestationUploadPipe for type modules (they import
 * AttestationTypeModule.register, which imports this module), AttestationRecorder for writers of other
 * modules, DecisionRecorder for evaluations (an evaluated decision's attestation and `decision.recorded` event), and the read shape of an attestation re-exported below (for the trail read model).
 */
@Module({
  imports: [LedgerModule, ArtifactsModule, ReposModule, OutboxModule, EvidenceLogModule, FlowsModule],
  controllers: [AttestationsController],
  providers: [
    AttestationTypeRegistry,
    AttestationRecorder,
    AttestationBatcher,
    AttestationRepository,
    AttestationReader,
    AttestationSearchReader,
    GetArtifactAttestationHandler,
    ListAttestationsForCriteriaHandler,
    PostgresEvidenceStore,
    {
      // Chosen by configuration (EVIDENCE_S3_BUCKET): a bucket, falling back to PostgreSQL for older blobs.
      provide: EvidenceStore,
      inject: [APP_CONFIG, PostgresEvidenceStore],
      useFactory: (config: AppConfig, postgres: PostgresEvidenceStore): EvidenceStore =>
        config.evidence.store === 's3' ? new S3EvidenceStore(config.evidence.s3, postgres) : postgres,
    },
    AttestationUploadPipe,
    DecisionRecorder,
    AttestMultipartHandler,
    ListFlowAttestationsHandler,
    FindOrgAttestationHandler,
    ListSlotVersionsHandler,
    GetAttestationEvidenceHandler,
    OpenAttestationEvidenceHandler,
  ],
  exports: [AttestationTypeRegistry, AttestationRecorder, AttestationBatcher, AttestationUploadPipe, DecisionRecorder],
})
export class AttestationsModule {}

export { AttestationTypeRegistry } from './types/attestation-type.registry';
export { AttestationRecorder } from './recording/attestation-recorder';
export { AttestationUploadPipe } from './upload/attestation-upload.pipe';
export { decisionAttestationType } from './types/decision/decision-attestation.type';
export { DecisionRecorder, decisionOutputProblem } from './types/decision/decision-recorder';
export type { EvaluatedDecision } from './types/decision/decision-recorder';
export type { DecisionData, DecisionProvenance } from './types/decision/decision-attestation.request.dto';
export type { RecordAttestationInput, RecordedAttestation } from './recording/attestation-recorder';
export { attestationRowsFrom } from './persistence/attestation.reader';
export type { AttestationRow } from './persistence/attestation.reader';
export { toAttestationResponse } from './dto/attestation.response';
export type { AttestationResponse } from './dto/attestation.response';

// Read messages other modules may dispatch (the audit package copies attestations and evidence as their routes answer them).
export { FindOrgAttestationQuery } from './queries/find-org-attestation/find-org-attestation.query';
export { ListFlowAttestationsQuery } from './queries/list-flow-attestations/list-flow-attestations.query';
export { GetAttestationEvidenceQuery } from './queries/get-attestation-evidence/get-attestation-evidence.query';
export { OpenAttestationEvidenceQuery } from './queries/open-attestation-evidence/open-attestation-evidence.query';
export type { OpenedEvidence } from './queries/open-attestation-evidence/open-attestation-evidence.query';
