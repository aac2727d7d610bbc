import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig } from '../../../../common/config/app-config';
import { toAttestationResponse } from '../../dto/attestation.response';
import { pageLinks } from '../../../../common/pagination/page-envelope';
import { PaginatedAttestations } from '../../dto/paginated-attestations.response';
import { AttestationReader } from '../../persistence/attestation.reader';
import { AttestationSearchReader } from '../../persistence/attestation-search.reader';
import { DEFAULT_PER_PAGE } from '../list-flow-attestations/list-flow-attestations.request.dto';
import { FindOrgAttestationQuery } from './find-org-attestation.query';

@QueryHandler(FindOrgAttestationQuery)
export class FindOrgAttestationHandler implements IQueryHandler<FindOrgAttestationQuery> {
  constructor(
    private readonly reader: AttestationReader,
    private readonly search: AttestationSearchReader,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(q: FindOrgAttestationQuery): Promise<PaginatedAttestations> {
    const { orgId, orgName, attestationId, page = 1, perPage = DEFAULT_PER_PAGE } = q.props;
    const base = `${this.config.publicBaseUrl}/api/v2/attestations/${encodeURIComponent(orgName)}`;
    if (attestationId !== undefined) {
      const rows = await this.reader.inOrgById(orgId, attestationId);
      return {
        data: rows.map((row) => toAttestationResponse(row, this.config.publicBaseUrl)),
        _links: pageLinks(base, { attestation_id: attestationId }, 1, 1, rows.length),
        pagination: { total: rows.length, page: 1, per_page: 1, page_count: rows.length },
      };
    }
    const { total, rows } = await this.search.orgPage(orgId, page, perPage);
    const pageCount = Math.ceil(total / perPage);
    return {
      data: rows.map((row) => toAttestationResponse(row, this.config.publicBaseUrl)),
      _links: pageLinks(base, {}, page, perPage, pageCount),
      pagination: { total, page, per_page: perPage, page_count: pageCount },
    };
  }
}
