import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../../../common/config/app-config';
import { InjectConfig } from '../../../../common/config/config.decorators';
import { DEFAULT_PER_PAGE, PageEnvelope, pageEnvelope } from '../../../../common/pagination/page-envelope';
import { FlowResponse, toFlowResponse } from '../../dto/flow.response';
import { FlowReader, FlowRow } from '../../persistence/flow.reader';
import { ListFlowsQuery } from './list-flows.query';

@QueryHandler(ListFlowsQuery)
export class ListFlowsHandler implements IQueryHandler<ListFlowsQuery> {
  constructor(
    private readonly flows: FlowReader,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(query: ListFlowsQuery): Promise<FlowResponse[] | PageEnvelope<FlowResponse>> {
    const filter = { searchByName: query.searchByName, caseSensitive: query.caseSensitive };
    const toResponse = (row: FlowRow) => toFlowResponse(row, query.orgName, this.config.publicBaseUrl);
    const paged = query.page !== undefined || query.perPage !== undefined;
    if (!paged) return (await this.flows.list(query.orgId, filter)).rows.map(toResponse);
    const page = query.page ?? 1;
    const perPage = query.perPage ?? DEFAULT_PER_PAGE;
    const { rows, total } = await this.flows.list(query.orgId, filter, { page, perPage });
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
