import { Controller, Get, Param, Put, Res, UseInterceptors } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { CurrentOrg, CurrentPrincipal } from '../../common/auth/auth.decorators';
import { OrgContext, Principal } from '../../common/auth/principal';
import { actingScope, orgScope } from '../../common/cqrs/org-scoped';
import { ApiSuccess } from '../../common/openapi/response-schema';
import { MultipartJson } from '../../common/validation/multipart-json';
import { PutPolicyCommand } from './commands/put-policy/put-policy.command';
import { PutPolicyPayloadDto } from './commands/put-policy/put-policy.request.dto';
import { POLICY_LIST_SCHEMA, POLICY_SCHEMA, POLICY_VERSION_SCHEMA } from './dto/policy.schema';
import { GetPolicyVersionQuery } from './queries/get-policy-version/get-policy-version.query';
import { POLICY_PAYLOAD, PolicyFile, PolicyFormInterceptor } from './policy-form.interceptor';
import { GetPolicyQuery } from './queries/get-policy/get-policy.query';
import { ListPoliciesQuery } from './queries/list-policies/list-policies.query';

@Controller('policies')
export class PoliciesController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  /** 201 when created, 200 when it exists (a new version only when the YAML changed). */
  @Put(':org')
  @UseInterceptors(PolicyFormInterceptor)
  @ApiSuccess(POLICY_SCHEMA, { status: [201, 200] })
  async put(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @MultipartJson(PutPolicyPayloadDto, POLICY_PAYLOAD) payload: PutPolicyPayloadDto,
    @PolicyFile() yaml: string,
    @Res({ passthrough: true }) res: Response,
  ) {
    const result = await this.commandBus.execute(
      new PutPolicyCommand({ ...actingScope(org, principal), name: payload.name, description: payload.description, comment: payload.comment, yaml }),
    );
    res.status(result.created ? 201 : 200);
    return result.policy;
  }

  @Get(':org')
  @ApiSuccess(POLICY_LIST_SCHEMA)
  list(@CurrentOrg() org: OrgContext) {
    return this.queryBus.execute(new ListPoliciesQuery(orgScope(org)));
  }

  @Get(':org/:policy_name')
  @ApiSuccess(POLICY_SCHEMA)
  get(@CurrentOrg() org: OrgContext, @Param('policy_name') name: string) {
    return this.queryBus.execute(new GetPolicyQuery({ ...orgScope(org), name }));
  }

  /** One version, immutable (the evidence log's `policy_version` entries hash this answer). */
  @Get(':org/:policy_name/versions/:version')
  @ApiSuccess(POLICY_VERSION_SCHEMA)
  version(@CurrentOrg() org: OrgContext, @Param('policy_name') name: string, @Param('version') version: string) {
    return this.queryBus.execute(new GetPolicyVersionQuery({ ...orgScope(org), name, version }));
  }
}
