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
    if (q.props.fromTimestamp !== undefined && q.props.toTimestamp !== undefined && q.props.fromTimestamp > q.props.toTimestamp) {
      throw new ValidationError({ 'query.from_timestamp': 'must not be after to_timestamp' });
    }
    let total: number;
    let rows: AttestationRow[];
    if (q.props.attestationId !== undefined) {
      const flow = await this.reader.flow(q.props.orgId, q.props.flowName);
      const found = await this.reader.inFlowById(flow.id, q.props.attestationId, q.props.fromTimestamp, q.props.toTimestamp);
      total = found.length;
      rows = q.props.page === 1 ? found : [];
    } else {
      const page = await this.reader.flowPage(q.props.orgId, q.props.flowName, q.props.page, q.props.perPage, q.props.fromTimestamp, q.props.toTimestamp);
      if (!page) throw new NotFoundError(`Flow '${q.props.flowName}' not found`);
      ({ total, rows } = page);
    }
    const pageCount = Math.ceil(total / q.props.perPage);
    const base = `${this.config.publicBaseUrl}/api/v2/attestations/${encodeURIComponent(q.props.orgName)}/${encodeURIComponent(q.props.flowName)}`;
    return {
      data: rows.map((row) => toAttestationResponse(row, this.config.publicBaseUrl)),
      _links: pageLinks(
        base,
        { from_timestamp: q.props.fromTimestamp, to_timestamp: q.props.toTimestamp, attestation_id: q.props.attestationId },
        q.props.page,
        q.props.perPage,
        pageCount,
      ),
      pagination: { total, page: q.props.page, per_page: q.props.perPage, page_count: pageCount },
    };
  }
}
