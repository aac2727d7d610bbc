import { Controller, Header, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CurrentOrg, CurrentPrincipal } from '../../../common/auth/auth.decorators';
import { OrgContext, Principal } from '../../../common/auth/principal';
import { actingScope } from '../../../common/cqrs/org-scoped';
import { toJsonString } from '../../../common/http/json-string';
import { ApiSuccess, message } from '../../../common/openapi/response-schema';
import { FlowNameParam, TrailNameParam } from '../../../common/validation/names';
import { AttestMultipartCommand } from '../commands/attest-multipart/attest-multipart.command';
import { AttestationUpload, UploadedAttestation } from '../upload/attestation-upload.pipe';

/**
 * The route every multipart attestation type has: `POST /attestations/{org}/{flow_name}/trail/{trail_name}/{typeName}`
 * with `data_json` (validated as `dataClass`) and the type's attachment, answered 201 with a message. The
 * controller only builds the command; the type registered as `typeName` does the rest. A type's controller is
 * `export class XAttestationController extends attestationRoute(...) {}`: the class keeps its own name, which
 * the route table, the OpenAPI operation ids and the error messages use.
 */
export function attestationRoute<T extends object>(typeName: string, dataClass: new () => T) {
  @Controller('attestations')
  class AttestationRoute {
    constructor(readonly commandBus: CommandBus) {}

    @Post(`:org/:flow_name/trail/:trail_name/${typeName}`)
    @HttpCode(201)
    @Header('Content-Type', 'application/json; charset=utf-8')
    @ApiSuccess(message)
    attest(
      @CurrentOrg() org: OrgContext,
      @CurrentPrincipal() principal: Principal,
      @FlowNameParam() flowName: string,
      @TrailNameParam() trailName: string,
      @UploadedAttestation(dataClass) upload: AttestationUpload<T>,
    ) {
      return this.commandBus.execute(new AttestMultipartCommand({ ...actingScope(org, principal), flowName, trailName, typeName, upload })).then(toJsonString);
    }
  }
  return AttestationRoute;
}
