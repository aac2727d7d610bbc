import type { ActionTarget } from '../domain/action-target';
import { emailMessage, signature, slackMessage, webhookBody } from '../domain/notification';
import type { NotificationTargetDefinition } from './notification-target';

const byUrl = (target: ActionTarget) => `url:${target.webhook ?? ''}`;

/** `WEBHOOK {webhook, secret?, payload_version?}`: the event as JSON, signed with the secret when there is one. */
export const WEBHOOK_TARGET: NotificationTargetDefinition = {
  type: 'WEBHOOK',
  fields: { webhook: 'required', secret: 'optional', payload_version: 'optional' },
  defaults: { payload_version: '1.0' },
  receiverKey: byUrl,
  send(target, { ctx, headers, timeoutMs }, io) {
    const body = Buffer.from(JSON.stringify(webhookBody(ctx)));
    const all: Record<string, string> = { ...headers, 'Content-Type': 'application/json' };
    if (target.secret) all['X-Signature-256'] = signature(target.secret, body);
    return io.post(target.webhook!, body, all, timeoutMs);
  },
};

/** `SLACK {webhook, context?}`: a Slack message to an incoming-webhook URL. */
export const SLACK_TARGET: NotificationTargetDefinition = {
  type: 'SLACK',
  fields: { webhook: 'required', context: 'optional' },
  receiverKey: byUrl,
  send(target, { ctx, headers, timeoutMs }, io) {
    return io.post(target.webhook!, Buffer.from(JSON.stringify(slackMessage(ctx))), { ...headers, 'Content-Type': 'application/json' }, timeoutMs);
  },
};

/** `EMAIL {emails}`: one mail to the listed addresses. */
export const EMAIL_TARGET: NotificationTargetDefinition = {
  type: 'EMAIL',
  fields: { emails: 'required' },
  receiverKey: (target) => `email:${[...(target.emails ?? [])].sort().join(',')}`,
  send(target, { ctx, headers, timeoutMs }, io) {
    return io.mail(target.emails ?? [], emailMessage(ctx), { 'X-Veritrail-Delivery': headers['X-Veritrail-Delivery'], 'X-Veritrail-Event': headers['X-Veritrail-Event'] }, timeoutMs);
  },
};

export const BUILTIN_TARGETS: readonly NotificationTargetDefinition[] = [SLACK_TARGET, WEBHOOK_TARGET, EMAIL_TARGET];
