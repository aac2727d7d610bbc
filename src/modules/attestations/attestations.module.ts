import { Global, Module } from '@nestjs/common';
import { AttestationsController } from './attestations.controller';
import { AttestMultipartHandler } from './commands/attest-multipart/attest-multipart.handler';
import { AttestationBatcher } from './persistence/attestation-batcher';
import { AttestationReader } from './persistence/attestation-reader';
import { AttestationRecorder } from './persistence/attestation-recorder';
import { EvidenceStore, PostgresEvidenceStore } from './persistence/evidence-store';
import { FindOrgAttestationHandler } from './queries/find-org-attestation/find-org-attestation.handler';
import { GetAttestationEvidenceHandler } from './queries/get-attestation-evidence/get-attestation-evidence.handler';
import { ListFlowAttestationsHandler } from './queries/list-flow-attestations/list-flow-attestations.handler';
import { ListSlotVersionsHandler } from './queries/list-slot-versions/list-slot-versions.handler';
import { AttestationTypeRegistry } from './types/attestation-type.registry';
import { AttestationUploadPipe } from './upload/attestation-upload.pipe';

/**
 * Attestations: the type registry, the shared write path (AttestationRecorder), the evidence store and the
 * read routes. Global so that attestation type modules (generic, decision ...) can register and record.
 */
@Global()
@Module({
  controllers: [AttestationsController],
  providers: [
    AttestationTypeRegistry,
    AttestationRecorder,
    AttestationBatcher,
    AttestationReader,
    PostgresEvidenceStore,
    { provide: EvidenceStore, useExisting: PostgresEvidenceStore },
    AttestationUploadPipe,
    AttestMultipartHandler,
    ListFlowAttestationsHandler,
    FindOrgAttestationHandler,
    ListSlotVersionsHandler,
    GetAttestationEvidenceHandler,
  ],
  exports: [AttestationTypeRegistry, AttestationRecorder, AttestationBatcher, AttestationReader, EvidenceStore, AttestationUploadPipe],
})
export class AttestationsModule {}
