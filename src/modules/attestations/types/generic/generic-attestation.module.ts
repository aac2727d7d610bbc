import { Module } from '@nestjs/common';
import { AttestationTypeDefinition } from '../attestation-type';
import { AttestationTypeModule } from '../../attestation-type.module';
import { GenericAttestationController } from './generic-attestation.controller';
import { GenericAttestationRequestDto } from './generic-attestation.request.dto';
import { commonRecordFields } from '../../dto/attestation-common-fields.dto';

/** `generic`: the caller states the verdict (`is_compliant`); an optional attachment is the evidence. */
export const genericAttestationType: AttestationTypeDefinition<GenericAttestationRequestDto> = {
  name: 'generic',
  schemaVersion: 1,
  dataClass: GenericAttestationRequestDto,
  acceptsAttachment: true,
  isCompliant: (data) => data.is_compliant,
  toRecord: (data) => ({
    ...commonRecordFields(data),
    extra: data.target_artifacts?.length ? { target_artifacts: data.target_artifacts } : {},
  }),
};

/** The whole `generic` type: its definition and its route. */
@Module({
  imports: [AttestationTypeModule.register(genericAttestationType)],
  controllers: [GenericAttestationController],
})
export class GenericAttestationModule {}
