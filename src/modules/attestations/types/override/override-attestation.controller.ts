import { Body, Controller, Header, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CurrentOrg, CurrentPrincipal } from '../../../../common/auth/auth.decorators';
import { OrgContext, Principal } from '../../../../common/auth/principal';
import { actingScope } from '../../../../common/cqrs/org-scoped';
import { toJsonString } from '../../../../common/http/json-string';
import { ApiSuccess, message } from '../../../../common/openapi/response-schema';
import { FlowNameParam, TrailNameParam } from '../../../../common/validation/names';
import { OverrideAttestationCommand } from './override-attestation.command';
import { OverrideAttestationRequestDto } from './override-attestation.request.dto';

@Controller('attestations')
export class OverrideAttestationController {
  constructor(private readonly commandBus: CommandBus) {}

  /** `kosli attest override`: a JSON body; 201 with a string, 404 when the slot has no attestation. */
  @Post(':org/:flow_name/trail/:trail_name/override')
  @HttpCode(201)
  @Header('Content-Type', 'application/json; charset=utf-8')
  @ApiSuccess(message)
  override(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @FlowNameParam() flowName: string,
    @TrailNameParam() trailName: string,
    @Body() data: OverrideAttestationRequestDto,
  ) {
    return this.commandBus
      .execute(new OverrideAttestationCommand({ ...actingScope(org, principal), flowName, trailName, data }))
      .then(toJsonString);
  }
}
