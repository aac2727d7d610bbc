import { Module } from '@nestjs/common';
import { AttestationTypeDefinition } from '../attestation-type';
import { AttestationTypeModule } from '../../attestation-type.module';
import { commonRecordFields } from '../../dto/attestation-common-fields.dto';
import { SnykAttestationController } from './snyk-attestation.controller';
import { SnykAttestationRequestDto } from './snyk-attestation.request.dto';
import { assessSnyk } from './snyk-assessment';

/** `snyk`: a security scan. Compliance from the attached results (`assess`); counts in `data.snyk`. */
export const snykAttestationType: AttestationTypeDefinition<SnykAttestationRequestDto> = {
  name: 'snyk',
  schemaVersion: 1,
  dataClass: SnykAttestationRequestDto,
  acceptsAttachment: true,
  isCompliant: (data) => data.snyk_results.results.every((r) => r.high_count + r.medium_count + r.low_count === 0),
  toRecord: (data) => ({
    ...commonRecordFields(data),
    extra: { ...(data.target_artifacts?.length ? { target_artifacts: data.target_artifacts } : {}), snyk_results: plain(data.snyk_results) },
  }),
  assess: assessSnyk,
};

const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value));

@Module({
  imports: [AttestationTypeModule.register(snykAttestationType)],
  controllers: [SnykAttestationController],
})
export class SnykAttestationModule {}
