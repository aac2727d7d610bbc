import { Controller, Header, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CurrentOrg, CurrentPrincipal } from '../../../../common/auth/auth.decorators';
import { OrgContext, Principal } from '../../../../common/auth/principal';
import { toJsonString } from '../../../../common/http/json-string';
import { FlowNameParam, TrailNameParam } from '../../../../common/validation/names';
import { AttestMultipartCommand } from '../../commands/attest-multipart/attest-multipart.command';
import { AttestationUpload, UploadedAttestation } from '../../upload/attestation-upload.pipe';
import { GenericAttestationRequestDto } from './generic-attestation.request.dto';
import { actingScope } from '../../../../common/cqrs/org-scoped';
import { ApiSuccess, message } from '../../../../common/openapi/response-schema';

@Controller('attestations')
export class GenericAttestationController {
  constructor(private readonly commandBus: CommandBus) {}

  /** Spec op 7: multipart `data_json` + at most one attachment (`attachment_file` or `attachment_file.0`). */
  @Post(':org/:flow_name/trail/:trail_name/generic')
  @HttpCode(201)
  @Header('Content-Type', 'application/json; charset=utf-8')
  @ApiSuccess(message)
  attest(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @FlowNameParam() flowName: string,
    @TrailNameParam() trailName: string,
    @UploadedAttestation(GenericAttestationRequestDto) upload: AttestationUpload<GenericAttestationRequestDto>,
  ) {
    return this.commandBus
      .execute(new AttestMultipartCommand({ ...actingScope(org, principal), flowName, trailName, typeName: 'generic', upload }))
      .then(toJsonString);
  }
}
