import { Body, Controller, Param, Put, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { CurrentOrg, CurrentPrincipal } from '../../common/auth/auth.decorators';
import { OrgContext, Principal } from '../../common/auth/principal';
import { actingScope } from '../../common/cqrs/org-scoped';
import { jsonString } from '../../common/http/json-string';
import { ApiSuccess, message } from '../../common/openapi/response-schema';
import { ArchiveEnvironmentCommand } from './commands/archive-environment/archive-environment.command';
import { RenameEnvironmentCommand } from './commands/rename-environment/rename-environment.command';
import { RenameEnvironmentRequestDto } from './commands/rename-environment/rename-environment.request.dto';

/** Archive and rename (`kosli archive environment`, `kosli rename environment`). */
@Controller('environments')
export class EnvironmentLifecycleController {
  constructor(private readonly commandBus: CommandBus) {}

  @Put(':org/:env/archive')
  @ApiSuccess(message)
  async archive(@CurrentOrg() org: OrgContext, @CurrentPrincipal() principal: Principal, @Param('env') env: string, @Res({ passthrough: true }) res: Response) {
    return jsonString(res, 200, await this.commandBus.execute(new ArchiveEnvironmentCommand({ ...actingScope(org, principal), envName: env })));
  }

  @Put(':org/:env/rename')
  @ApiSuccess(message)
  async rename(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @Param('env') env: string,
    @Body() body: RenameEnvironmentRequestDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    return jsonString(res, 200, await this.commandBus.execute(new RenameEnvironmentCommand({ ...actingScope(org, principal), envName: env, newName: body.new_name })));
  }
}
