import { OrgScope, OrgQuery } from '../../../../common/cqrs/org-scoped';
import { PaginatedAttestations } from '../../dto/paginated-attestations.response';

export interface FindOrgAttestationProps extends OrgScope {
  attestationId: string;
}

/** `GET /attestations/{org}?attestation_id=`: one attestation anywhere in the org, in the list envelope. */
export class FindOrgAttestationQuery extends OrgQuery<FindOrgAttestationProps, PaginatedAttestations> {}
