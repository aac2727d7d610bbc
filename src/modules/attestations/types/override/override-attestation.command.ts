import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';
import { OverrideAttestationRequestDto } from './override-attestation.request.dto';

export interface OverrideAttestationProps extends ActingScope {
  flowName: string;
  trailName: string;
  data: OverrideAttestationRequestDto;
}

/** Override the verdict of one slot of a trail. */
export class OverrideAttestationCommand extends OrgCommand<OverrideAttestationProps, string> {}
