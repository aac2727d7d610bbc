import { Module } from '@nestjs/common';
import { AttestationTypeDefinition } from '../attestation-type';
import { AttestationTypeModule } from '../../attestation-type.module';
import { commonRecordFields } from '../../dto/attestation-common-fields.dto';
import { SonarAttestationController } from './sonar-attestation.controller';
import { SonarAttestationRequestDto } from './sonar-attestation.request.dto';
import { assessSonarResults } from './sonar-results';
import { SonarWebhookReceiverController, SonarWebhooksController } from './webhook/sonar-webhook.controllers';
import { CreateSonarWebhookHandler, DeleteSonarWebhookHandler, ListSonarWebhooksHandler, ReceiveSonarWebhookHandler } from './webhook/sonar-webhook.handlers';
import { SonarWebhookRepository } from './webhook/sonar-webhook.repository';

/** `sonar`: a SonarQube analysis. Compliance is its quality gate (`assess`); the gate in `data.sonar`. */
export const sonarAttestationType: AttestationTypeDefinition<SonarAttestationRequestDto> = {
  name: 'sonar',
  schemaVersion: 1,
  dataClass: SonarAttestationRequestDto,
  acceptsAttachment: true,
  isCompliant: (data) => (data.sonar_results.qualityGate as { status?: string } | undefined)?.status === 'OK',
  toRecord: (data) => ({
    ...commonRecordFields(data),
    extra: { ...(data.target_artifacts?.length ? { target_artifacts: data.target_artifacts } : {}), sonar_results: data.sonar_results },
  }),
  assess: async ({ data }) => assessSonarResults(data.sonar_results, 'sonar_results'),
};

/**
 * The `sonar` type: its route, and SonarQube's webhook (an org admin's hooks under `/integrations/{org}/sonar`,
 * SonarQube's calls to `/webhooks/sonar/{hook_uid}`), which records the same type. Owns `sonar_webhooks`.
 */
@Module({
  imports: [AttestationTypeModule.register(sonarAttestationType)],
  controllers: [SonarAttestationController, SonarWebhooksController, SonarWebhookReceiverController],
  providers: [SonarWebhookRepository, CreateSonarWebhookHandler, ListSonarWebhooksHandler, DeleteSonarWebhookHandler, ReceiveSonarWebhookHandler],
})
export class SonarAttestationModule {}
