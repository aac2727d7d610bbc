import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler, IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../../../../../common/config/app-config';
import { NotFoundError, UnauthorizedError, ValidationError } from '../../../../../common/errors/app-error';
import { AttestationBatcher } from '../../../recording/attestation-batcher';
import { withAssessment } from '../../assessed-type';
import { AttestationTypeRegistry } from '../../attestation-type.registry';
import { assessSonarResults } from '../sonar-results';
import {
  CreateSonarWebhookCommand,
  DeleteSonarWebhookCommand,
  ListSonarWebhooksQuery,
  ReceiveSonarWebhookCommand,
  SonarWebhookReceipt,
} from './sonar-webhook.commands';
import { SonarWebhookResponse } from './sonar-webhook.dto';
import { SonarWebhookRepository, SonarWebhookRow } from './sonar-webhook.repository';
import { sonarWebhookTarget } from './sonar-webhook-target';

function toResponse(row: SonarWebhookRow, baseUrl: string): SonarWebhookResponse {
  return {
    hook_uid: row.hook_uid,
    webhook_url: `${baseUrl}/api/v2/webhooks/sonar/${row.hook_uid}`,
    flow_name_from: row.flow_name_from,
    flow_name_prefix: row.flow_name_prefix,
    flow_name_suffix: row.flow_name_suffix,
    created_by: row.created_by,
    created_at: Number(row.created_at),
  };
}

@CommandHandler(CreateSonarWebhookCommand)
export class CreateSonarWebhookHandler implements ICommandHandler<CreateSonarWebhookCommand> {
  constructor(
    private readonly hooks: SonarWebhookRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ props }: CreateSonarWebhookCommand): Promise<SonarWebhookResponse> {
    const row = await this.hooks.insert({
      id: randomUUID(),
      org_id: props.orgId,
      // 128 random bits: the uid alone finds the org, so it must not be guessable.
      hook_uid: randomBytes(16).toString('hex'),
      secret: randomBytes(24).toString('base64url'),
      flow_name_from: props.options.flow_name_from ?? 'key',
      flow_name_prefix: props.options.flow_name_prefix ?? '',
      flow_name_suffix: props.options.flow_name_suffix ?? '',
      created_by: props.actor,
    });
    return { ...toResponse(row, this.config.publicBaseUrl), secret: row.secret };
  }
}

@QueryHandler(ListSonarWebhooksQuery)
export class ListSonarWebhooksHandler implements IQueryHandler<ListSonarWebhooksQuery> {
  constructor(
    private readonly hooks: SonarWebhookRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ props }: ListSonarWebhooksQuery): Promise<SonarWebhookResponse[]> {
    return (await this.hooks.list(props.orgId)).map((row) => toResponse(row, this.config.publicBaseUrl));
  }
}

@CommandHandler(DeleteSonarWebhookCommand)
export class DeleteSonarWebhookHandler implements ICommandHandler<DeleteSonarWebhookCommand> {
  constructor(private readonly hooks: SonarWebhookRepository) {}

  async execute({ props }: DeleteSonarWebhookCommand): Promise<string> {
    if (!(await this.hooks.delete(props.orgId, props.hookUid))) throw new NotFoundError(`Sonar webhook '${props.hookUid}' not found`);
    return `Sonar webhook '${props.hookUid}' was deleted`;
  }
}

/**
 * A SonarQube analysis becomes a `sonar` attestation, judged by its quality gate like `kosli attest sonar`:
 * 404 for an unknown hook; 401 unless `X-Sonar-Webhook-HMAC-SHA256` is the HMAC-SHA256 (hex) of the exact
 * body with the hook's secret; 400 for a payload that is not an analysis or names an invalid flow, trail or
 * attestation. The flow and trail are created when missing, as for every attestation.
 */
@CommandHandler(ReceiveSonarWebhookCommand)
export class ReceiveSonarWebhookHandler implements ICommandHandler<ReceiveSonarWebhookCommand> {
  constructor(
    private readonly hooks: SonarWebhookRepository,
    private readonly registry: AttestationTypeRegistry,
    private readonly batcher: AttestationBatcher,
  ) {}

  async execute({ props }: ReceiveSonarWebhookCommand): Promise<SonarWebhookReceipt> {
    const hook = /^[a-f0-9]{32}$/.test(props.hookUid) ? await this.hooks.byUid(props.hookUid) : null;
    if (!hook) throw new NotFoundError('Sonar webhook not found');
    if (!props.rawBody) throw new ValidationError({ body: 'a JSON body (the SonarQube analysis) is required' });
    if (!signatureMatches(hook.secret, props.rawBody, props.signature)) {
      throw new UnauthorizedError('The X-Sonar-Webhook-HMAC-SHA256 header is missing or does not match the webhook secret');
    }
    const payload = props.payload;
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new ValidationError({ body: 'must be a JSON object (a SonarQube analysis)' });

    const judged = assessSonarResults(payload as Record<string, unknown>, '');
    const target = sonarWebhookTarget(payload as Record<string, unknown>, hook);
    const type = this.registry.get('sonar')!;
    const recorded = await this.batcher.record({
      orgId: hook.org_id,
      flowName: target.flowName,
      trailName: target.trailName,
      actor: 'SonarQube webhook',
      type: withAssessment(type, judged),
      data: target.data,
    });
    return {
      message: `sonar attestation '${target.data.attestation_name}' was reported to trail '${target.trailName}' of flow '${target.flowName}'`,
      attestation_id: recorded.attestationIds[0] ?? null,
      is_compliant: judged.isCompliant,
    };
  }
}

function signatureMatches(secret: string, body: Buffer, header: string | undefined): boolean {
  if (!header || !/^[a-f0-9]{64}$/i.test(header.trim())) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(header.trim(), 'hex'));
}
