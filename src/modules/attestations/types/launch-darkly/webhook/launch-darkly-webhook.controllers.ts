import { Body, Controller, createParamDecorator, Delete, ExecutionContext, Get, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { CurrentOrg, CurrentPrincipal, Public, RequiresRole } from '../../../../../common/auth/auth.decorators';
import { OrgContext, Principal } from '../../../../../common/auth/principal';
import { actingScope, orgScope } from '../../../../../common/cqrs/org-scoped';
import { ApiErrors, ApiSuccess, message } from '../../../../../common/openapi/response-schema';
import { RAW_JSON_BODY } from '../../../../../common/http/raw-json-body';
import {
  CreateLaunchDarklyWebhookCommand,
  DeleteLaunchDarklyWebhookCommand,
  ListLaunchDarklyWebhooksQuery,
  ReceiveLaunchDarklyWebhookCommand,
} from './launch-darkly-webhook.commands';
import {
  CreateLaunchDarklyWebhookRequestDto,
  LAUNCH_DARKLY_WEBHOOK_CREATED_SCHEMA,
  LAUNCH_DARKLY_WEBHOOK_LIST_SCHEMA,
  LAUNCH_DARKLY_WEBHOOK_RECEIVED_SCHEMA,
} from './launch-darkly-webhook.dto';

/** The exact bytes of a JSON body, kept for the routes under /webhooks/ (the HMAC is over them). */
const RawJsonBody = createParamDecorator((_: unknown, ctx: ExecutionContext): Buffer | undefined => ctx.switchToHttp().getRequest()[RAW_JSON_BODY]);

/** An org admin's LaunchDarkly webhooks: create (the answer holds the secret, once), list, delete. */
@Controller('integrations')
export class LaunchDarklyWebhooksController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  @Post(':org/launch-darkly')
  @HttpCode(201)
  @RequiresRole('admin')
  @ApiSuccess(LAUNCH_DARKLY_WEBHOOK_CREATED_SCHEMA)
  create(@CurrentOrg() org: OrgContext, @CurrentPrincipal() principal: Principal, @Body() options: CreateLaunchDarklyWebhookRequestDto) {
    return this.commandBus.execute(new CreateLaunchDarklyWebhookCommand({ ...actingScope(org, principal), options }));
  }

  @Get(':org/launch-darkly')
  @RequiresRole('admin')
  @ApiSuccess(LAUNCH_DARKLY_WEBHOOK_LIST_SCHEMA)
  list(@CurrentOrg() org: OrgContext) {
    return this.queryBus.execute(new ListLaunchDarklyWebhooksQuery(orgScope(org)));
  }

  @Delete(':org/launch-darkly/:hook_uid')
  @RequiresRole('admin')
  @ApiSuccess(message)
  delete(@CurrentOrg() org: OrgContext, @CurrentPrincipal() principal: Principal, @Param('hook_uid') hookUid: string) {
    return this.commandBus.execute(new DeleteLaunchDarklyWebhookCommand({ ...actingScope(org, principal), hookUid }));
  }
}

/**
 * What LaunchDarkly calls on each change. It sends no API key: the hook's uid names the org and the
 * `X-LD-Signature` header proves the secret (checked by the handler).
 */
@Controller('webhooks')
export class LaunchDarklyWebhookReceiverController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post('launch-darkly/:hook_uid')
  @Public()
  @HttpCode(200)
  @ApiSuccess(LAUNCH_DARKLY_WEBHOOK_RECEIVED_SCHEMA)
  @ApiErrors({
    400: 'The body is not a LaunchDarkly event, or a flag event names no flag.',
    401: 'The X-LD-Signature header is missing or is not the HMAC-SHA256 of the body with the hook secret.',
    404: 'No LaunchDarkly webhook has this uid.',
    413: 'The body is too large.',
    415: 'The body is not JSON.',
  })
  receive(
    @Param('hook_uid') hookUid: string,
    @Headers('x-ld-signature') signature: string | undefined,
    @RawJsonBody() rawBody: Buffer | undefined,
    @Body() payload: unknown,
  ) {
    return this.commandBus.execute(new ReceiveLaunchDarklyWebhookCommand({ hookUid, signature, rawBody, payload }));
  }
}
