import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';
import { AttestationUpload } from '../../upload/attestation-upload.pipe';

export interface AttestMultipartProps extends ActingScope {
  flowName: string;
  trailName: string;
  typeName: string;
  upload: AttestationUpload;
}

/**
 * Record one attestation of a registered type from a multipart request (`data_json` + optional attachment).
 * The result is the string body the route answers with.
 */
export class AttestMultipartCommand extends OrgCommand<AttestMultipartProps, string> {}
