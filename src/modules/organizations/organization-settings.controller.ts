import { Body, Controller, Put, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { CurrentOrg, CurrentPrincipal, RequiresRole } from '../../common/auth/auth.decorators';
import { OrgContext, Principal } from '../../common/auth/principal';
import { actingScope } from '../../common/cqrs/org-scoped';
import { jsonString } from '../../common/http/json-string';
import { ApiSuccess, message } from '../../common/openapi/response-schema';
import { SetExperimentalFeaturesCommand } from './commands/set-experimental-features/set-experimental-features.command';
import { SetExperimentalFeaturesRequestDto } from './commands/set-experimental-features/set-experimental-features.request.dto';

/** What an org admin sets for the org. */
@Controller('organizations')
export class OrganizationSettingsController {
  constructor(private readonly commandBus: CommandBus) {}

  /** Beta features on (all) or off, by an org admin. */
  @Put(':org/experimental_features')
  @RequiresRole('admin')
  @ApiSuccess(message)
  async experimentalFeatures(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @Body() body: SetExperimentalFeaturesRequestDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    return jsonString(res, 200, await this.commandBus.execute(new SetExperimentalFeaturesCommand({ ...actingScope(org, principal), enabled: body.experimental_features_enabled })));
  }
}
