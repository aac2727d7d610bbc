import { Body, Controller, Delete, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CurrentOrg, CurrentPrincipal } from '../../common/auth/auth.decorators';
import { OrgContext, Principal } from '../../common/auth/principal';
import { actingScope } from '../../common/cqrs/org-scoped';
import { ApiSuccess } from '../../common/openapi/response-schema';
import { ChangePoliciesCommand } from './commands/change-policies/change-policies.command';
import { ChangePoliciesRequestDto } from './commands/change-policies/change-policies.request.dto';
import { POLICIES_CHANGED_SCHEMA } from './dto/gate.schema';

/** `kosli attach-policy` / `detach-policy`: each change judges the environment's latest snapshot again. */
@Controller('environments')
export class EnvironmentPoliciesController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post(':org/:env/policies')
  @HttpCode(200)
  @ApiSuccess(POLICIES_CHANGED_SCHEMA)
  attach(@CurrentOrg() org: OrgContext, @CurrentPrincipal() principal: Principal, @Param('env') envName: string, @Body() body: ChangePoliciesRequestDto) {
    return this.commandBus.execute(new ChangePoliciesCommand({ ...actingScope(org, principal), envName, policyNames: body.policy_names, change: 'attach' }));
  }

  @Delete(':org/:env/policies')
  @HttpCode(200)
  @ApiSuccess(POLICIES_CHANGED_SCHEMA)
  detach(@CurrentOrg() org: OrgContext, @CurrentPrincipal() principal: Principal, @Param('env') envName: string, @Body() body: ChangePoliciesRequestDto) {
    return this.commandBus.execute(new ChangePoliciesCommand({ ...actingScope(org, principal), envName, policyNames: body.policy_names, change: 'detach' }));
  }
}
