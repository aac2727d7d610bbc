import { Body, Controller, createParamDecorator, Delete, ExecutionContext, Get, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { CurrentOrg, CurrentPrincipal, Public, RequiresRole } from '../../../../../common/auth/auth.decorators';
import { OrgContext, Principal } from '../../../../../common/auth/principal';
import { actingScope, orgScope } from '../../../../../common/cqrs/org-scoped';
import { ApiErrors, ApiSuccess, message } from '../../../../../common/openapi/response-schema';
import { RAW_JSON_BODY } from '../../../../../common/http/raw-json-body';
import { CreateSonarWebhookCommand, DeleteSonarWebhookCommand, ListSonarWebhooksQuery, ReceiveSonarWebhookCommand } from './sonar-webhook.commands';
import {
  CreateSonarWebhookRequestDto,
  SONAR_WEBHOOK_CREATED_SCHEMA,
  SONAR_WEBHOOK_LIST_SCHEMA,
  SONAR_WEBHOOK_RECEIVED_SCHEMA,
} from './sonar-webhook.dto';

/** The exact bytes of a JSON body, kept for the routes under /webhooks/ (the HMAC is over them). */
const RawJsonBody = createParamDecorator((_: unknown, ctx: ExecutionContext): Buffer | undefined => ctx.switchToHttp().getRequest()[RAW_JSON_BODY]);

/** An org admin's SonarQube webhooks: create (the answer holds the secret, once), list, delete. */
@Controller('integrations')
export class SonarWebhooksController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  @Post(':org/sonar')
  @HttpCode(201)
  @RequiresRole('admin')
  @ApiSuccess(SONAR_WEBHOOK_CREATED_SCHEMA)
  create(@CurrentOrg() org: OrgContext, @CurrentPrincipal() principal: Principal, @Body() options: CreateSonarWebhookRequestDto) {
    return this.commandBus.execute(new CreateSonarWebhookCommand({ ...actingScope(org, principal), options }));
  }

  @Get(':org/sonar')
  @RequiresRole('admin')
  @ApiSuccess(SONAR_WEBHOOK_LIST_SCHEMA)
  list(@CurrentOrg() org: OrgContext) {
    return this.queryBus.execute(new ListSonarWebhooksQuery(orgScope(org)));
  }

  @Delete(':org/sonar/:hook_uid')
  @RequiresRole('admin')
  @ApiSuccess(message)
  delete(@CurrentOrg() org: OrgContext, @CurrentPrincipal() principal: Principal, @Param('hook_uid') hookUid: string) {
    return this.commandBus.execute(new DeleteSonarWebhookCommand({ ...actingScope(org, principal), hookUid }));
  }
}

/**
 * What SonarQube calls when an analysis is done. It sends no API key: the hook's uid names the org and the
 * HMAC header proves the secret (checked by the handler).
 */
@Controller('webhooks')
export class SonarWebhookReceiverController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post('sonar/:hook_uid')
  @Public()
  @HttpCode(200)
  @ApiSuccess(SONAR_WEBHOOK_RECEIVED_SCHEMA)
  @ApiErrors({
    400: 'The body is not a SonarQube analysis, or its scanner properties name an invalid flow, trail or attestation.',
    401: 'The X-Sonar-Webhook-HMAC-SHA256 header is missing or is not the HMAC-SHA256 of the body with the hook secret.',
    404: 'No webhook has this uid.',
    413: 'The body is too large.',
    415: 'The body is not JSON.',
  })
  receive(
    @Param('hook_uid') hookUid: string,
    @Headers('x-sonar-webhook-hmac-sha256') signature: string | undefined,
    @RawJsonBody() rawBody: Buffer | undefined,
    @Body() payload: unknown,
  ) {
    return this.commandBus.execute(new ReceiveSonarWebhookCommand({ hookUid, signature, rawBody, payload }));
  }
}
