import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler, IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../../../../../common/config/app-config';
import { NotFoundError, UnauthorizedError, ValidationError } from '../../../../../common/errors/app-error';
import { nameProblem } from '../../../../../common/validation/names';
import { AttestationBatcher } from '../../../recording/attestation-batcher';
import { AttestationTypeRegistry } from '../../attestation-type.registry';
import { LaunchDarklyAttestationData } from '../launch-darkly-attestation.data';
import { attestationNameFor, launchDarklyChange, trailNameFor } from '../launch-darkly-event';
import {
  CreateLaunchDarklyWebhookCommand,
  DeleteLaunchDarklyWebhookCommand,
  LaunchDarklyWebhookReceipt,
  ListLaunchDarklyWebhooksQuery,
  ReceiveLaunchDarklyWebhookCommand,
} from './launch-darkly-webhook.commands';
import { LaunchDarklyWebhookResponse } from './launch-darkly-webhook.dto';
import { LaunchDarklyWebhookRepository, LaunchDarklyWebhookRow } from './launch-darkly-webhook.repository';

export const DEFAULT_TRAIL_NAME = 'launch-darkly-{environment}';
export const DEFAULT_APP_URL = 'https://app.launchdarkly.com';

function toResponse(row: LaunchDarklyWebhookRow, baseUrl: string): LaunchDarklyWebhookResponse {
  return {
    hook_uid: row.hook_uid,
    webhook_url: `${baseUrl}/api/v2/webhooks/launch-darkly/${row.hook_uid}`,
    flow_name: row.flow_name,
    trail_name: row.trail_name,
    app_url: row.app_url,
    created_by: row.created_by,
    created_at: Number(row.created_at),
  };
}

@CommandHandler(CreateLaunchDarklyWebhookCommand)
export class CreateLaunchDarklyWebhookHandler implements ICommandHandler<CreateLaunchDarklyWebhookCommand> {
  constructor(
    private readonly hooks: LaunchDarklyWebhookRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ props }: CreateLaunchDarklyWebhookCommand): Promise<LaunchDarklyWebhookResponse> {
    const row = await this.hooks.insert({
      id: randomUUID(),
      org_id: props.orgId,
      // 128 random bits: the uid alone finds the org, so it must not be guessable.
      hook_uid: randomBytes(16).toString('hex'),
      secret: randomBytes(24).toString('base64url'),
      flow_name: props.options.flow_name,
      trail_name: props.options.trail_name ?? DEFAULT_TRAIL_NAME,
      app_url: props.options.app_url ?? DEFAULT_APP_URL,
      created_by: props.actor,
    });
    return { ...toResponse(row, this.config.publicBaseUrl), secret: row.secret };
  }
}

@QueryHandler(ListLaunchDarklyWebhooksQuery)
export class ListLaunchDarklyWebhooksHandler implements IQueryHandler<ListLaunchDarklyWebhooksQuery> {
  constructor(
    private readonly hooks: LaunchDarklyWebhookRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ props }: ListLaunchDarklyWebhooksQuery): Promise<LaunchDarklyWebhookResponse[]> {
    return (await this.hooks.list(props.orgId)).map((row) => toResponse(row, this.config.publicBaseUrl));
  }
}

@CommandHandler(DeleteLaunchDarklyWebhookCommand)
export class DeleteLaunchDarklyWebhookHandler implements ICommandHandler<DeleteLaunchDarklyWebhookCommand> {
  constructor(private readonly hooks: LaunchDarklyWebhookRepository) {}

  async execute({ props }: DeleteLaunchDarklyWebhookCommand): Promise<string> {
    if (!(await this.hooks.delete(props.orgId, props.hookUid))) throw new NotFoundError(`LaunchDarkly webhook '${props.hookUid}' not found`);
    return `LaunchDarkly webhook '${props.hookUid}' was deleted`;
  }
}

/**
 * A LaunchDarkly flag change becomes a `launch_darkly` attestation named after the flag, on the hook's flow and
 * trail (its template filled from the change): 404 for an unknown hook; 401 unless `X-LD-Signature` is the
 * HMAC-SHA256 (hex) of the exact body with the hook's secret; 400 for a body that is not an event. Events that
 * are not about a flag are acknowledged (200) and not recorded, so LaunchDarkly does not retry them.
 */
@CommandHandler(ReceiveLaunchDarklyWebhookCommand)
export class ReceiveLaunchDarklyWebhookHandler implements ICommandHandler<ReceiveLaunchDarklyWebhookCommand> {
  constructor(
    private readonly hooks: LaunchDarklyWebhookRepository,
    private readonly registry: AttestationTypeRegistry,
    private readonly batcher: AttestationBatcher,
  ) {}

  async execute({ props }: ReceiveLaunchDarklyWebhookCommand): Promise<LaunchDarklyWebhookReceipt> {
    const hook = /^[a-f0-9]{32}$/.test(props.hookUid) ? await this.hooks.byUid(props.hookUid) : null;
    if (!hook) throw new NotFoundError('LaunchDarkly webhook not found');
    if (!props.rawBody) throw new ValidationError({ body: 'a JSON body (the LaunchDarkly event) is required' });
    if (!signatureMatches(hook.secret, props.rawBody, props.signature)) {
      throw new UnauthorizedError('The X-LD-Signature header is missing or does not match the webhook secret');
    }
    const payload = props.payload;
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new ValidationError({ body: 'must be a JSON object (a LaunchDarkly event)' });
    if (typeof (payload as Record<string, unknown>).kind !== 'string') throw new ValidationError({ kind: 'is required: the kind of resource the event is about' });

    const change = launchDarklyChange(payload as Record<string, unknown>, hook.app_url);
    if (!change) return { message: `'${(payload as Record<string, unknown>).kind}' events are not recorded`, attestation_id: null, is_compliant: null };
    const trailName = trailNameFor(hook.trail_name, change);
    const attestationName = attestationNameFor(change);
    const problem = nameProblem('trail', trailName);
    if (problem) throw new ValidationError({ trail_name: `'${trailName}' (the hook's trail name filled in) ${problem}` });
    const data = Object.assign(new LaunchDarklyAttestationData(), { attestation_name: attestationName, launch_darkly: change });
    const recorded = await this.batcher.record({
      orgId: hook.org_id,
      flowName: hook.flow_name,
      trailName,
      actor: change.changed_by ? `LaunchDarkly webhook (${change.changed_by})` : 'LaunchDarkly webhook',
      type: this.registry.get('launch_darkly')!,
      data,
    });
    return {
      message: `launch_darkly attestation '${attestationName}' was reported to trail '${trailName}' of flow '${hook.flow_name}'`,
      attestation_id: recorded.attestationIds[0] ?? null,
      is_compliant: true,
    };
  }
}

function signatureMatches(secret: string, body: Buffer, header: string | undefined): boolean {
  if (!header || !/^[a-f0-9]{64}$/i.test(header.trim())) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(header.trim(), 'hex'));
}
