import { OrgScope, OrgQuery } from '../../../../common/cqrs/org-scoped';
import { AttestationResponse } from '../../dto/attestation.response';

export interface ListAttestationsForCriteriaProps extends OrgScope {
  commitList: string | string[] | undefined;
  flowName?: string;
  attestationName?: string;
  attestationType?: string;
  attestationId?: string;
}

/** Attestations by the commits they name: `{<sha1>: [attestation, ...]}`, one key per commit asked for. */
export class ListAttestationsForCriteriaQuery extends OrgQuery<ListAttestationsForCriteriaProps, Record<string, AttestationResponse[]>> {}
