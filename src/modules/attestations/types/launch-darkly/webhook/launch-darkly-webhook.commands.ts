import { Command } from '@nestjs/cqrs';
import { ActingScope, OrgCommand, OrgQuery, OrgScope } from '../../../../../common/cqrs/org-scoped';
import { CreateLaunchDarklyWebhookRequestDto, LaunchDarklyWebhookResponse } from './launch-darkly-webhook.dto';

export interface CreateLaunchDarklyWebhookProps extends ActingScope {
  options: CreateLaunchDarklyWebhookRequestDto;
}
/** An org admin binds a LaunchDarkly webhook to a flow and a trail (name or template): a new uid and secret. */
export class CreateLaunchDarklyWebhookCommand extends OrgCommand<CreateLaunchDarklyWebhookProps, LaunchDarklyWebhookResponse> {}

/** The org's LaunchDarkly webhooks, without their secrets. */
export class ListLaunchDarklyWebhooksQuery extends OrgQuery<OrgScope, LaunchDarklyWebhookResponse[]> {}

export interface DeleteLaunchDarklyWebhookProps extends ActingScope {
  hookUid: string;
}
/** LaunchDarkly's later calls to a deleted hook are 404. */
export class DeleteLaunchDarklyWebhookCommand extends OrgCommand<DeleteLaunchDarklyWebhookProps, string> {}

export interface ReceiveLaunchDarklyWebhookProps {
  hookUid: string;
  /** `X-LD-Signature`. */
  signature: string | undefined;
  rawBody: Buffer | undefined;
  payload: unknown;
}
export interface LaunchDarklyWebhookReceipt {
  message: string;
  /** Null when the event is not a flag change (acknowledged, not recorded). */
  attestation_id: string | null;
  is_compliant: boolean | null;
}
/** LaunchDarkly posts an audit log entry: not org-scoped until the hook uid names the org. */
export class ReceiveLaunchDarklyWebhookCommand extends Command<LaunchDarklyWebhookReceipt> {
  constructor(readonly props: Readonly<ReceiveLaunchDarklyWebhookProps>) {
    super();
  }
}
