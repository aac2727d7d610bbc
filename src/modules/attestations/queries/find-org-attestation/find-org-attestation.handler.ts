import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig } from '../../../../common/config/app-config';
import { toAttestationResponse } from '../../dto/attestation.response';
import { pageLinks } from '../../../../common/pagination/page-envelope';
import { PaginatedAttestations } from '../../dto/paginated-attestations.response';
import { AttestationReader } from '../../persistence/attestation.reader';
import { FindOrgAttestationQuery } from './find-org-attestation.query';

@QueryHandler(FindOrgAttestationQuery)
export class FindOrgAttestationHandler implements IQueryHandler<FindOrgAttestationQuery> {
  constructor(
    private readonly reader: AttestationReader,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(q: FindOrgAttestationQuery): Promise<PaginatedAttestations> {
    const rows = await this.reader.inOrgById(q.props.orgId, q.props.attestationId);
    const base = `${this.config.publicBaseUrl}/api/v2/attestations/${encodeURIComponent(q.props.orgName)}`;
    return {
      data: rows.map((row) => toAttestationResponse(row, this.config.publicBaseUrl)),
      _links: pageLinks(base, { attestation_id: q.props.attestationId }, 1, 1, rows.length),
      pagination: { total: rows.length, page: 1, per_page: 1, page_count: rows.length },
    };
  }
}
