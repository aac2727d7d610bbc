import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../../common/config/app-config';
import { InjectConfig } from '../../../../common/config/config.decorators';
import { DEFAULT_PER_PAGE, PageEnvelope, pageEnvelope } from '../../../../common/pagination/page-envelope';
import { FLOW_COLUMNS, FLOW_FROM, FlowResponse, FlowRow, toFlowResponse } from '../../dto/flow.response';
import { ListFlowsQuery } from './list-flows.query';

@QueryHandler(ListFlowsQuery)
export class ListFlowsHandler implements IQueryHandler<ListFlowsQuery> {
  constructor(
    private readonly dataSource: DataSource,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(query: ListFlowsQuery): Promise<FlowResponse[] | PageEnvelope<FlowResponse>> {
    const params: unknown[] = [query.orgId];
    let where = 'f.org_id = $1';
    if (query.searchByName) {
      params.push(`%${query.searchByName}%`);
      where += ` AND f.name ${query.caseSensitive ? 'LIKE' : 'ILIKE'} $2`;
    }
    const toResponse = (row: FlowRow) => toFlowResponse(row, query.orgName, this.config.publicBaseUrl);
    const paged = query.page !== undefined || query.perPage !== undefined;
    if (!paged) {
      const rows: FlowRow[] = await this.dataSource.query(`SELECT ${FLOW_COLUMNS} ${FLOW_FROM} WHERE ${where} ORDER BY f.name`, params);
      return rows.map(toResponse);
    }
    const page = query.page ?? 1;
    const perPage = query.perPage ?? DEFAULT_PER_PAGE;
    const [{ total }]: Array<{ total: number }> = await this.dataSource.query(
      `SELECT count(*)::int AS total FROM flows f WHERE ${where}`,
      params,
    );
    const rows: FlowRow[] = await this.dataSource.query(
      `SELECT ${FLOW_COLUMNS} ${FLOW_FROM} WHERE ${where} ORDER BY f.name LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
      params,
    );
    return pageEnvelope(
      rows.map(toResponse),
      total,
      page,
      perPage,
      `${this.config.publicBaseUrl}/api/v2/flows/${encodeURIComponent(query.orgName)}`,
      { search_by_name: query.searchByName, case_sensitive: query.searchByName ? String(query.caseSensitive) : undefined },
    );
  }
}
