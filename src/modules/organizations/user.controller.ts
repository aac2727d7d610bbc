import { Controller, Put, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { CurrentOrg, CurrentPrincipal, RequiresRole } from '../../common/auth/auth.decorators';
import { OrgContext, Principal } from '../../common/auth/principal';
import { actingScope } from '../../common/cqrs/org-scoped';
import { jsonString } from '../../common/http/json-string';
import { ApiSuccess, message } from '../../common/openapi/response-schema';
import { SetDefaultOrganizationCommand } from './commands/set-default-organization/set-default-organization.command';

/** The calling user's own settings. */
@Controller('user')
export class UserController {
  constructor(private readonly commandBus: CommandBus) {}

  /** The caller's default organization (any member may set it; `GET /organizations/{org}` shows `is_default`). */
  @Put(':org')
  @RequiresRole('reader')
  @ApiSuccess(message)
  async setDefault(@CurrentOrg() org: OrgContext, @CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) res: Response) {
    return jsonString(res, 200, await this.commandBus.execute(new SetDefaultOrganizationCommand({ ...actingScope(org, principal), principal })));
  }
}
