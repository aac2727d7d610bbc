import { Controller, Header, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CurrentOrg, CurrentPrincipal } from '../../../../common/auth/auth.decorators';
import { OrgContext, Principal } from '../../../../common/auth/principal';
import { actingScope } from '../../../../common/cqrs/org-scoped';
import { toJsonString } from '../../../../common/http/json-string';
import { FlowNameParam, TrailNameParam } from '../../../../common/validation/names';
import { AttestationUpload, UploadedAttestation } from '../../upload/attestation-upload.pipe';
import { AttestDecisionCommand } from './attest-decision.command';
import { SystemDecisionRequestDto } from './decision-attestation.request.dto';
import { ApiSuccess, message } from '../../../../common/openapi/response-schema';

@Controller('attestations')
export class DecisionAttestationController {
  constructor(private readonly commandBus: CommandBus) {}

  /** A decision made elsewhere, as the CLI's `attest decision` sends it: multipart `data_json` (+ attachment). */
  @Post(':org/:flow_name/trail/:trail_name/system')
  @HttpCode(201)
  @Header('Content-Type', 'application/json; charset=utf-8')
  @ApiSuccess(message)
  attest(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @FlowNameParam() flowName: string,
    @TrailNameParam() trailName: string,
    @UploadedAttestation(SystemDecisionRequestDto) upload: AttestationUpload<SystemDecisionRequestDto>,
  ) {
    return this.commandBus
      .execute(new AttestDecisionCommand({ ...actingScope(org, principal), flowName, trailName, upload }))
      .then(toJsonString);
  }
}
