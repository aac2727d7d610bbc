import { Command } from '@nestjs/cqrs';
import { Principal } from '../../../../common/auth/principal';
import { AttestationUpload } from '../../upload/attestation-upload.pipe';

/**
 * Record one attestation of a registered type from a multipart request (`data_json` + optional attachment).
 * The result is the string body the route answers with.
 */
export class AttestMultipartCommand extends Command<string> {
  constructor(
    readonly orgId: string,
    readonly principal: Principal,
    readonly flowName: string,
    readonly trailName: string,
    readonly typeName: string,
    readonly upload: AttestationUpload,
  ) {
    super();
  }
}
