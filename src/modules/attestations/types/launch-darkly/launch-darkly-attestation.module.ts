import { Module } from '@nestjs/common';
import { AttestationTypeDefinition } from '../attestation-type';
import { AttestationTypeModule } from '../../attestation-type.module';
import { LaunchDarklyAttestationData } from './launch-darkly-attestation.data';
import { LaunchDarklyWebhookReceiverController, LaunchDarklyWebhooksController } from './webhook/launch-darkly-webhook.controllers';
import {
  CreateLaunchDarklyWebhookHandler,
  DeleteLaunchDarklyWebhookHandler,
  ListLaunchDarklyWebhooksHandler,
  ReceiveLaunchDarklyWebhookHandler,
} from './webhook/launch-darkly-webhook.handlers';
import { LaunchDarklyWebhookRepository } from './webhook/launch-darkly-webhook.repository';

/**
 * `launch_darkly`: a feature flag change in LaunchDarkly. A change is a fact to keep, not a verdict, so it is
 * compliant; a policy that wants to judge one reads `launch_darkly.*` (flag, environment, actions, who, when).
 */
export const launchDarklyAttestationType: AttestationTypeDefinition<LaunchDarklyAttestationData> = {
  name: 'launch_darkly',
  schemaVersion: 1,
  dataClass: LaunchDarklyAttestationData,
  acceptsAttachment: false,
  isCompliant: () => true,
  toRecord: (data) => ({
    attestationName: data.attestation_name,
    description: data.launch_darkly.title
      ? `${data.launch_darkly.changed_by ?? 'someone'} ${data.launch_darkly.title}`
      : `flag '${data.launch_darkly.flag}' changed`,
    originUrl: data.launch_darkly.url,
    extra: { launch_darkly: data.launch_darkly },
  }),
};

/**
 * The `launch_darkly` type and LaunchDarkly's webhook: an org admin's hooks under
 * `/integrations/{org}/launch-darkly`, LaunchDarkly's calls to `/webhooks/launch-darkly/{hook_uid}`. Owns
 * `launch_darkly_webhooks`. There is no CLI route for the type: only the webhook records it.
 */
@Module({
  imports: [AttestationTypeModule.register(launchDarklyAttestationType)],
  controllers: [LaunchDarklyWebhooksController, LaunchDarklyWebhookReceiverController],
  providers: [
    LaunchDarklyWebhookRepository,
    CreateLaunchDarklyWebhookHandler,
    ListLaunchDarklyWebhooksHandler,
    DeleteLaunchDarklyWebhookHandler,
    ReceiveLaunchDarklyWebhookHandler,
  ],
})
export class LaunchDarklyAttestationModule {}
