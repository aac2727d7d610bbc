import { OrgScope, OrgQuery } from '../../../../common/cqrs/org-scoped';
import { PaginatedAttestations } from '../../dto/paginated-attestations.response';

export interface FindOrgAttestationProps extends OrgScope {
  /** One attestation anywhere in the org; without it, the org's attestations newest first. */
  attestationId?: string;
  page?: number;
  perPage?: number;
}

/** `GET /attestations/{org}`: one attestation by id, or a page of the org's attestations, in the list envelope. */
export class FindOrgAttestationQuery extends OrgQuery<FindOrgAttestationProps, PaginatedAttestations> {}
