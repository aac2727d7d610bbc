import { Body, Controller, Delete, Get, Header, Param, Patch, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { CurrentOrg, CurrentPrincipal, RequiresRole } from '../../common/auth/auth.decorators';
import { OrgContext, Principal, Role } from '../../common/auth/principal';
import { actingScope, orgScope } from '../../common/cqrs/org-scoped';
import { toJsonString } from '../../common/http/json-string';
import {
  API_KEY_SCHEMA,
  CREATED_API_KEY_SCHEMA,
  CreateApiKeyCommand,
  CreateApiKeyRequestDto,
  GetApiKeyQuery,
  ListApiKeysQuery,
  RevokeApiKeyCommand,
  RotateApiKeyCommand,
  RotateApiKeyRequestDto,
  serviceAccountHolder,
} from '../identity/identity.module';
import { CreateServiceAccountCommand } from './commands/create-service-account/create-service-account.command';
import { CreateServiceAccountRequestDto } from './commands/create-service-account/create-service-account.request.dto';
import { DeleteServiceAccountCommand } from './commands/delete-service-account/delete-service-account.command';
import { UpdateServiceAccountCommand } from './commands/update-service-account/update-service-account.command';
import { UpdateServiceAccountRequestDto } from './commands/update-service-account/update-service-account.request.dto';
import { GetServiceAccountQuery } from './queries/get-service-account/get-service-account.query';
import { ListServiceAccountsQuery } from './queries/list-service-accounts/list-service-accounts.query';
import { ApiSuccess, arrayOf, message } from '../../common/openapi/response-schema';
import { SERVICE_ACCOUNT_SCHEMA } from './dto/service-account.schema';

/** Service accounts of an org and their API keys. Writes need admin; reads, any role. */
@Controller('service-accounts')
export class ServiceAccountsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  @Post(':org')
  @RequiresRole('admin')
  @ApiSuccess(SERVICE_ACCOUNT_SCHEMA)
  create(@CurrentOrg() org: OrgContext, @CurrentPrincipal() principal: Principal, @Body() body: CreateServiceAccountRequestDto) {
    return this.commandBus.execute(
      new CreateServiceAccountCommand({
        ...actingScope(org, principal),
        name: body.name,
        description: body.description ?? '',
        role: body.privilege as Role,
      }),
    );
  }

  @Get(':org')
  @ApiSuccess(arrayOf(SERVICE_ACCOUNT_SCHEMA))
  list(@CurrentOrg() org: OrgContext) {
    return this.queryBus.execute(new ListServiceAccountsQuery(orgScope(org)));
  }

  @Get(':org/:service_account')
  @ApiSuccess(SERVICE_ACCOUNT_SCHEMA)
  get(@CurrentOrg() org: OrgContext, @Param('service_account') name: string) {
    return this.queryBus.execute(new GetServiceAccountQuery({ ...orgScope(org), name }));
  }

  @Patch(':org/:service_account')
  @RequiresRole('admin')
  @ApiSuccess(SERVICE_ACCOUNT_SCHEMA)
  update(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @Param('service_account') name: string,
    @Body() body: UpdateServiceAccountRequestDto,
  ) {
    return this.commandBus.execute(
      new UpdateServiceAccountCommand({
        ...actingScope(org, principal),
        name,
        description: body.description,
        role: body.privilege as Role | undefined,
      }),
    );
  }

  @Delete(':org/:service_account')
  @RequiresRole('admin')
  @Header('Content-Type', 'application/json; charset=utf-8')
  @ApiSuccess(message)
  async remove(@CurrentOrg() org: OrgContext, @CurrentPrincipal() principal: Principal, @Param('service_account') name: string) {
    return toJsonString(await this.commandBus.execute(new DeleteServiceAccountCommand({ ...actingScope(org, principal), name })));
  }

  @Post(':org/:service_account/api-keys')
  @RequiresRole('admin')
  @ApiSuccess(CREATED_API_KEY_SCHEMA)
  createKey(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @Param('service_account') name: string,
    @Body() body: CreateApiKeyRequestDto,
  ) {
    return this.commandBus.execute(
      new CreateApiKeyCommand({
        ...actingScope(org, principal),
        holder: serviceAccountHolder(name),
        description: body.description,
        expiresAt: body.expires_at,
      }),
    );
  }

  @Get(':org/:service_account/api-keys')
  @ApiSuccess(arrayOf(API_KEY_SCHEMA))
  listKeys(@CurrentOrg() org: OrgContext, @Param('service_account') name: string) {
    return this.queryBus.execute(new ListApiKeysQuery({ ...orgScope(org), holder: serviceAccountHolder(name) }));
  }

  @Get(':org/:service_account/api-keys/:key_id')
  @ApiSuccess(API_KEY_SCHEMA)
  getKey(@CurrentOrg() org: OrgContext, @Param('service_account') name: string, @Param('key_id') keyId: string) {
    return this.queryBus.execute(new GetApiKeyQuery({ ...orgScope(org), holder: serviceAccountHolder(name), keyId }));
  }

  /** The CLI sends the body `null`. */
  @Delete(':org/:service_account/api-keys/:key_id')
  @RequiresRole('admin')
  @Header('Content-Type', 'application/json; charset=utf-8')
  @ApiSuccess(message)
  async revokeKey(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @Param('service_account') name: string,
    @Param('key_id') keyId: string,
  ) {
    return toJsonString(
      await this.commandBus.execute(new RevokeApiKeyCommand({ ...actingScope(org, principal), holder: serviceAccountHolder(name), keyId })),
    );
  }

  @Post(':org/:service_account/api-keys/:key_id/rotate')
  @RequiresRole('admin')
  @ApiSuccess(CREATED_API_KEY_SCHEMA)
  rotateKey(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @Param('service_account') name: string,
    @Param('key_id') keyId: string,
    @Body() body: RotateApiKeyRequestDto,
  ) {
    return this.commandBus.execute(
      new RotateApiKeyCommand({
        ...actingScope(org, principal),
        holder: serviceAccountHolder(name),
        keyId,
        graceHours: body.grace_period_hours,
        expiresAt: body.expires_at,
      }),
    );
  }
}
