import { Global, Module } from '@nestjs/common';
import { AttestationsController } from './attestations.controller';
import { JsonStringInterceptor } from './http/json-string.interceptor';
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
import { AttestationUploadInterceptor } from './upload/attestation-upload.interceptor';

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
    AttestationUploadInterceptor,
    JsonStringInterceptor,
    AttestMultipartHandler,
    ListFlowAttestationsHandler,
    FindOrgAttestationHandler,
    ListSlotVersionsHandler,
    GetAttestationEvidenceHandler,
  ],
  exports: [AttestationTypeRegistry, AttestationRecorder, AttestationBatcher, AttestationReader, EvidenceStore, AttestationUploadInterceptor, JsonStringInterceptor],
})
export class AttestationsModule {}
