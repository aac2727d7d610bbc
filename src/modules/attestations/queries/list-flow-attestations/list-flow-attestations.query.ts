import { OrgScope, OrgQuery } from '../../../../common/cqrs/org-scoped';
import { PaginatedAttestations } from '../../dto/paginated-attestations.response';

export interface ListFlowAttestationsProps extends OrgScope {
  flowName: string;
  /** from 1; default 1 */
  page?: number;
  /** default 20 */
  perPage?: number;
  fromTimestamp?: number;
  toTimestamp?: number;
  attestationId?: string;
}

export class ListFlowAttestationsQuery extends OrgQuery<ListFlowAttestationsProps, PaginatedAttestations> {}
