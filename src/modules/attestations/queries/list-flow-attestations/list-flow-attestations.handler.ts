import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig } from '../../../../common/config/app-config';
import { NotFoundError, ValidationError } from '../../../../common/errors/app-error';
import { toAttestationResponse } from '../../dto/attestation.response';
import { pageLinks } from '../../../../common/pagination/page-envelope';
import { PaginatedAttestations } from '../../dto/paginated-attestations.response';
import { AttestationReader } from '../../persistence/attestation.reader';
import { AttestationRow } from '../../persistence/attestation.reader';
import { DEFAULT_PER_PAGE } from './list-flow-attestations.request.dto';
import { ListFlowAttestationsQuery } from './list-flow-attestations.query';

/**
 * Newest first, by flow_seq: page P is the seq range [hi - P*per_page + 1, hi - (P-1)*per_page] clipped to
 * the span's [lo, hi], so every page (first or millionth) costs one index range scan; no OFFSET.
 */
@QueryHandler(ListFlowAttestationsQuery)
export class ListFlowAttestationsHandler implements IQueryHandler<ListFlowAttestationsQuery> {
  constructor(
    private readonly reader: AttestationReader,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(query: ListFlowAttestationsQuery): Promise<PaginatedAttestations> {
    const { orgId, orgName, flowName, fromTimestamp, toTimestamp, attestationId, page = 1, perPage = DEFAULT_PER_PAGE } = query.props;
    if (fromTimestamp !== undefined && toTimestamp !== undefined && fromTimestamp > toTimestamp) {
      throw new ValidationError({ 'query.from_timestamp': 'must not be after to_timestamp' });
    }
    let total: number;
    let rows: AttestationRow[];
    if (attestationId !== undefined) {
      const flow = await this.reader.flow(orgId, flowName);
      const found = await this.reader.inFlowById(flow.id, attestationId, fromTimestamp, toTimestamp);
      total = found.length;
      rows = page === 1 ? found : [];
    } else {
      const found = await this.reader.flowPage(orgId, flowName, page, perPage, fromTimestamp, toTimestamp);
      if (!found) throw new NotFoundError(`Flow '${flowName}' not found`);
      ({ total, rows } = found);
    }
    const pageCount = Math.ceil(total / perPage);
    const base = `${this.config.publicBaseUrl}/api/v2/attestations/${encodeURIComponent(orgName)}/${encodeURIComponent(flowName)}`;
    return {
      data: rows.map((row) => toAttestationResponse(row, this.config.publicBaseUrl)),
      _links: pageLinks(
        base,
        { from_timestamp: fromTimestamp, to_timestamp: toTimestamp, attestation_id: attestationId },
        page,
        perPage,
        pageCount,
      ),
      pagination: { total, page: page, per_page: perPage, page_count: pageCount },
    };
  }
}
