import { OrgScope, OrgQuery } from '../../../../common/cqrs/org-scoped';
import { PaginatedAttestations } from '../../dto/paginated-attestations.response';

export interface ListFlowAttestationsProps extends OrgScope {
  flowName: string;
  page: number;
  perPage: number;
  fromTimestamp?: number;
  toTimestamp?: number;
  attestationId?: string;
}

export class ListFlowAttestationsQuery extends OrgQuery<ListFlowAttestationsProps, PaginatedAttestations> {}
