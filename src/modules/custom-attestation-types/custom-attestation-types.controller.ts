import { Controller, Get, HttpCode, Param, Post, Put, Query, UseInterceptors } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { CurrentOrg, CurrentPrincipal } from '../../common/auth/auth.decorators';
import { OrgContext, Principal } from '../../common/auth/principal';
import { actingScope, orgScope } from '../../common/cqrs/org-scoped';
import { ApiSuccess } from '../../common/openapi/response-schema';
import { MultipartJson } from '../../common/validation/multipart-json';
import { ArchiveCustomTypeCommand } from './commands/archive-custom-type/archive-custom-type.command';
import { DefineCustomTypeCommand } from './commands/define-custom-type/define-custom-type.command';
import { DefineCustomTypeRequestDto } from './commands/define-custom-type/define-custom-type.request.dto';
import { CUSTOM_TYPE_LIST_SCHEMA, CUSTOM_TYPE_SCHEMA } from './dto/custom-type.schema';
import { GetCustomTypeQuery } from './queries/get-custom-type/get-custom-type.query';
import { GetCustomTypeQueryDto } from './queries/get-custom-type/get-custom-type.request.dto';
import { ListCustomTypesQuery } from './queries/list-custom-types/list-custom-types.query';
import { TypeSchemaFormInterceptor, TypeSchemaSource } from './type-schema-form.interceptor';

/** Custom attestation types: members define and archive them (as they create flows), every reader reads them. */
@Controller('custom-attestation-types')
export class CustomAttestationTypesController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  /** Create, or add a version when anything changed: multipart `data_json` + optional `type_schema` file. */
  @Post(':org')
  @HttpCode(201)
  @UseInterceptors(TypeSchemaFormInterceptor)
  @ApiSuccess(CUSTOM_TYPE_SCHEMA)
  define(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @MultipartJson(DefineCustomTypeRequestDto) data: DefineCustomTypeRequestDto,
    @TypeSchemaSource() schemaSource: string | null,
  ) {
    return this.commandBus.execute(new DefineCustomTypeCommand({ ...actingScope(org, principal), data, schemaSource }));
  }

  @Get(':org')
  @ApiSuccess(CUSTOM_TYPE_LIST_SCHEMA)
  list(@CurrentOrg() org: OrgContext) {
    return this.queryBus.execute(new ListCustomTypesQuery(orgScope(org)));
  }

  @Get(':org/:custom_attestation_type_name')
  @ApiSuccess(CUSTOM_TYPE_SCHEMA)
  get(@CurrentOrg() org: OrgContext, @Param('custom_attestation_type_name') name: string, @Query() q: GetCustomTypeQueryDto) {
    return this.queryBus.execute(new GetCustomTypeQuery({ ...orgScope(org), name, version: q.version }));
  }

  @Put(':org/:custom_attestation_type_name/archive')
  @HttpCode(200)
  @ApiSuccess(CUSTOM_TYPE_SCHEMA)
  archive(@CurrentOrg() org: OrgContext, @CurrentPrincipal() principal: Principal, @Param('custom_attestation_type_name') name: string) {
    return this.commandBus.execute(new ArchiveCustomTypeCommand({ ...actingScope(org, principal), name }));
  }
}
