import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { CurrentOrg, CurrentPrincipal } from '../../common/auth/auth.decorators';
import { OrgContext, Principal } from '../../common/auth/principal';
import { jsonString } from '../../common/http/json-string';
import { FlowNameParam } from '../../common/validation/names';
import { ReportArtifactCommand } from './commands/report-artifact/report-artifact.command';
import { ReportArtifactRequestDto } from './commands/report-artifact/report-artifact.request.dto';
import { actingScope } from '../../common/cqrs/org-scoped';
import { ApiSuccess, message } from '../../common/openapi/response-schema';

@Controller('artifacts')
export class ArtifactsController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post(':org/:flow')
  @HttpCode(201)
  @ApiSuccess(message)
  async report(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @FlowNameParam('flow') flow: string,
    @Body() body: ReportArtifactRequestDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const message = await this.commandBus.execute(new ReportArtifactCommand({ ...actingScope(org, principal), flowName: flow, artifact: body }));
    return jsonString(res, 201, message);
  }
}
