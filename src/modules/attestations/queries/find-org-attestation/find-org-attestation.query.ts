import { Query } from '@nestjs/cqrs';
import { PaginatedAttestations } from '../../dto/paginated-attestations.response';

/** `GET /attestations/{org}?attestation_id=`: one attestation anywhere in the org, in the list envelope. */
export class FindOrgAttestationQuery extends Query<PaginatedAttestations> {
  constructor(readonly orgId: string, readonly orgName: string, readonly attestationId: string) {
    super();
  }
}
