import { Query } from '@nestjs/cqrs';
import { PaginatedAttestations } from '../../dto/paginated-attestations.response';

export class ListFlowAttestationsQuery extends Query<PaginatedAttestations> {
  constructor(
    readonly orgId: string,
    readonly orgName: string,
    readonly flowName: string,
    readonly page: number,
    readonly perPage: number,
    readonly fromTimestamp: number | undefined,
    readonly toTimestamp: number | undefined,
    readonly attestationId: string | undefined,
  ) {
    super();
  }
}
