import { Body, Controller, Delete, Get, Header, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { CurrentOrg, CurrentPrincipal, RequiresRole } from '../../common/auth/auth.decorators';
import { OrgContext, Principal } from '../../common/auth/principal';
import { actingScope, orgScope } from '../../common/cqrs/org-scoped';
import { toJsonString } from '../../common/http/json-string';
import { CreateApiKeyCommand } from './commands/create-api-key/create-api-key.command';
import { CreateApiKeyRequestDto } from './commands/create-api-key/create-api-key.request.dto';
import { RevokeApiKeyCommand } from './commands/revoke-api-key/revoke-api-key.command';
import { RotateApiKeyCommand } from './commands/rotate-api-key/rotate-api-key.command';
import { RotateApiKeyRequestDto } from './commands/rotate-api-key/rotate-api-key.request.dto';
import { callerHolder } from './key-holders';
import { GetApiKeyQuery } from './queries/get-api-key/get-api-key.query';
import { ListApiKeysQuery } from './queries/list-api-keys/list-api-keys.query';
import { ApiSuccess, arrayOf, message } from '../../common/openapi/response-schema';
import { API_KEY_SCHEMA, CREATED_API_KEY_SCHEMA } from './dto/identity.schema';

/**
 * The calling user's personal API keys, managed the way a service account's are. A personal key acts as its
 * user in every org the user belongs to, with the user's role there; the org in the path is where the caller
 * is checked (admin for writes, as for every key route).
 */
@Controller('api-keys')
export class PersonalApiKeysController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  @Post(':org')
  @RequiresRole('admin')
  @ApiSuccess(CREATED_API_KEY_SCHEMA)
  create(@CurrentOrg() org: OrgContext, @CurrentPrincipal() principal: Principal, @Body() body: CreateApiKeyRequestDto) {
    return this.commandBus.execute(
      new CreateApiKeyCommand({
        ...actingScope(org, principal),
        holder: callerHolder(principal),
        description: body.description,
        expiresAt: body.expires_at,
      }),
    );
  }

  @Get(':org')
  @ApiSuccess(arrayOf(API_KEY_SCHEMA))
  list(@CurrentOrg() org: OrgContext, @CurrentPrincipal() principal: Principal) {
    return this.queryBus.execute(new ListApiKeysQuery({ ...orgScope(org), holder: callerHolder(principal) }));
  }

  @Get(':org/:key_id')
  @ApiSuccess(API_KEY_SCHEMA)
  get(@CurrentOrg() org: OrgContext, @CurrentPrincipal() principal: Principal, @Param('key_id') keyId: string) {
    return this.queryBus.execute(new GetApiKeyQuery({ ...orgScope(org), holder: callerHolder(principal), keyId }));
  }

  @Delete(':org/:key_id')
  @RequiresRole('admin')
  @Header('Content-Type', 'application/json; charset=utf-8')
  @ApiSuccess(message)
  async revoke(@CurrentOrg() org: OrgContext, @CurrentPrincipal() principal: Principal, @Param('key_id') keyId: string) {
    return toJsonString(
      await this.commandBus.execute(new RevokeApiKeyCommand({ ...actingScope(org, principal), holder: callerHolder(principal), keyId })),
    );
  }

  @Post(':org/:key_id/rotate')
  @RequiresRole('admin')
  @ApiSuccess(CREATED_API_KEY_SCHEMA)
  rotate(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @Param('key_id') keyId: string,
    @Body() body: RotateApiKeyRequestDto,
  ) {
    return this.commandBus.execute(
      new RotateApiKeyCommand({
        ...actingScope(org, principal),
        holder: callerHolder(principal),
        keyId,
        graceHours: body.grace_period_hours,
        expiresAt: body.expires_at,
      }),
    );
  }
}
