import { Command } from '@nestjs/cqrs';
import { ActingScope, OrgCommand, OrgQuery, OrgScope } from '../../../../../common/cqrs/org-scoped';
import { CreateSonarWebhookRequestDto, SonarWebhookResponse } from './sonar-webhook.dto';

export interface CreateSonarWebhookProps extends ActingScope {
  options: CreateSonarWebhookRequestDto;
}
/** An org admin creates a SonarQube webhook: a new uid and secret. */
export class CreateSonarWebhookCommand extends OrgCommand<CreateSonarWebhookProps, SonarWebhookResponse> {}

/** The org's SonarQube webhooks, without their secrets. */
export class ListSonarWebhooksQuery extends OrgQuery<OrgScope, SonarWebhookResponse[]> {}

export interface DeleteSonarWebhookProps extends ActingScope {
  hookUid: string;
}
/** SonarQube's later calls to a deleted hook are 404. */
export class DeleteSonarWebhookCommand extends OrgCommand<DeleteSonarWebhookProps, string> {}

export interface ReceiveSonarWebhookProps {
  hookUid: string;
  /** `X-Sonar-Webhook-HMAC-SHA256`. */
  signature: string | undefined;
  rawBody: Buffer | undefined;
  payload: unknown;
}
export interface SonarWebhookReceipt {
  message: string;
  attestation_id: string | null;
  is_compliant: boolean;
}
/** SonarQube posts an analysis: not org-scoped until the hook uid names the org. */
export class ReceiveSonarWebhookCommand extends Command<SonarWebhookReceipt> {
  constructor(readonly props: Readonly<ReceiveSonarWebhookProps>) {
    super();
  }
}
