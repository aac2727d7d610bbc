import { Module } from '@nestjs/common';
import { AttestationTypeDefinition } from '../attestation-type';
import { AttestationTypeModule } from '../../attestation-type.module';
import { commonRecordFields } from '../../dto/attestation-common-fields.dto';
import { JunitAttestationController } from './junit-attestation.controller';
import { JunitAttestationRequestDto } from './junit-attestation.request.dto';
import { assessJunit } from './junit-assessment';

/**
 * `junit`: test results. The service decides compliance from the attached report(s) (`assess`); the typed
 * counts are stored as `data.junit`, the CLI's `junit_results` as sent, the XML as the attachment.
 */
export const junitAttestationType: AttestationTypeDefinition<JunitAttestationRequestDto> = {
  name: 'junit',
  schemaVersion: 1,
  dataClass: JunitAttestationRequestDto,
  acceptsAttachment: true,
  // Used only without assess (never for this type); the same rule on the CLI's counts.
  isCompliant: (data) => data.junit_results.every((r) => r.failures === 0 && r.errors === 0),
  toRecord: (data) => ({
    ...commonRecordFields(data),
    extra: { ...(data.target_artifacts?.length ? { target_artifacts: data.target_artifacts } : {}), junit_results: data.junit_results.map((r) => ({ ...r })) },
  }),
  assess: assessJunit,
};

@Module({
  imports: [AttestationTypeModule.register(junitAttestationType)],
  controllers: [JunitAttestationController],
})
export class JunitAttestationModule {}
