import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';
import { AttestationUpload } from '../../upload/attestation-upload.pipe';
import { SystemDecisionRequestDto } from './decision-attestation.request.dto';

export interface AttestDecisionProps extends ActingScope {
  flowName: string;
  trailName: string;
  upload: AttestationUpload<SystemDecisionRequestDto>;
}

/** Record a decision made outside the service (the CLI's `attest decision`). */
export class AttestDecisionCommand extends OrgCommand<AttestDecisionProps, string> {}
