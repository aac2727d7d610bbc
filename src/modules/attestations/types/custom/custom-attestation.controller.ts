import { Controller, Header, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CurrentOrg, CurrentPrincipal } from '../../../../common/auth/auth.decorators';
import { OrgContext, Principal } from '../../../../common/auth/principal';
import { actingScope } from '../../../../common/cqrs/org-scoped';
import { toJsonString } from '../../../../common/http/json-string';
import { ApiSuccess, message } from '../../../../common/openapi/response-schema';
import { FlowNameParam, TrailNameParam } from '../../../../common/validation/names';
import { AttestMultipartCommand } from '../../commands/attest-multipart/attest-multipart.command';
import { AttestationUpload, UploadedAttestation } from '../../upload/attestation-upload.pipe';
import { CustomAttestationRequestDto } from './custom-attestation.request.dto';

@Controller('attestations')
export class CustomAttestationController {
  constructor(private readonly commandBus: CommandBus) {}

  /** `kosli attest custom`: multipart `data_json` (with `type_name` and `attestation_data`) + optional attachment. */
  @Post(':org/:flow_name/trail/:trail_name/custom')
  @HttpCode(201)
  @Header('Content-Type', 'application/json; charset=utf-8')
  @ApiSuccess(message)
  attest(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @FlowNameParam() flowName: string,
    @TrailNameParam() trailName: string,
    @UploadedAttestation(CustomAttestationRequestDto) upload: AttestationUpload<CustomAttestationRequestDto>,
  ) {
    return this.commandBus
      .execute(new AttestMultipartCommand({ ...actingScope(org, principal), flowName, trailName, typeName: 'custom', upload }))
      .then(toJsonString);
  }
}
