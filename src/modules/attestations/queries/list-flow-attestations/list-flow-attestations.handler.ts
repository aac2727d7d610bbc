import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig } from '../../../../common/config/app-config';
import { NotFoundError, ValidationError } from '../../../../common/errors/app-error';
import { toAttestationResponse } from '../../dto/attestation.response';
import { pageLinks } from '../../../../common/pagination/page-envelope';
import { PaginatedAttestations } from '../../dto/paginated-attestations.response';
import { AttestationReader } from '../../persistence/attestation.reader';
import { AttestationRow } from '../../persistence/attestation.reader';
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

  async execute(q: ListFlowAttestationsQuery): Promise<PaginatedAttestations> {
    if (q.fromTimestamp !== undefined && q.toTimestamp !== undefined && q.fromTimestamp > q.toTimestamp) {
      throw new ValidationError({ 'query.from_timestamp': 'must not be after to_timestamp' });
    }
    let total: number;
    let rows: AttestationRow[];
    if (q.attestationId !== undefined) {
      const flow = await this.reader.flow(q.orgId, q.flowName);
      const found = await this.reader.inFlowById(flow.id, q.attestationId, q.fromTimestamp, q.toTimestamp);
      total = found.length;
      rows = q.page === 1 ? found : [];
    } else {
      const page = await this.reader.flowPage(q.orgId, q.flowName, q.page, q.perPage, q.fromTimestamp, q.toTimestamp);
      if (!page) throw new NotFoundError(`Flow '${q.flowName}' not found`);
      ({ total, rows } = page);
    }
    const pageCount = Math.ceil(total / q.perPage);
    const base = `${this.config.publicBaseUrl}/api/v2/attestations/${encodeURIComponent(q.orgName)}/${encodeURIComponent(q.flowName)}`;
    return {
      data: rows.map((row) => toAttestationResponse(row, this.config.publicBaseUrl)),
      _links: pageLinks(
        base,
        { from_timestamp: q.fromTimestamp, to_timestamp: q.toTimestamp, attestation_id: q.attestationId },
        q.page,
        q.perPage,
        pageCount,
      ),
      pagination: { total, page: q.page, per_page: q.perPage, page_count: pageCount },
    };
  }
}
