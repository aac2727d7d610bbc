import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CurrentOrg, CurrentPrincipal } from '../../common/auth/auth.decorators';
import { OrgContext, Principal } from '../../common/auth/principal';
import { GetOrganizationQuery } from './queries/get-organization/get-organization.query';
import { orgScope } from '../../common/cqrs/org-scoped';
import { ApiSuccess } from '../../common/openapi/response-schema';
import { MEMBER_ORGANIZATION_SCHEMA } from './dto/organization.schema';

@Controller('organizations')
export class OrganizationsController {
  constructor(private readonly queryBus: QueryBus) {}

  /** The org as its members see it, with the caller's own role (a quick "is my key right?" check). */
  @Get(':org')
  @ApiSuccess(MEMBER_ORGANIZATION_SCHEMA)
  get(@CurrentOrg() org: OrgContext, @CurrentPrincipal() principal: Principal) {
    return this.queryBus.execute(
      new GetOrganizationQuery({ ...orgScope(org), callerRole: org.role, caller: principal }),
    );
  }
}
