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
    const filter = { searchByName: query.props.searchByName, caseSensitive: query.props.caseSensitive, archived: query.props.archived };
    const toResponse = (row: FlowRow) => toFlowResponse(row, query.props.orgName, this.config.publicBaseUrl);
    const paged = query.props.page !== undefined || query.props.perPage !== undefined;
    if (!paged) return (await this.flows.list(query.props.orgId, filter)).rows.map(toResponse);
    const page = query.props.page ?? 1;
    const perPage = query.props.perPage ?? DEFAULT_PER_PAGE;
    const { rows, total } = await this.flows.list(query.props.orgId, filter, { page, perPage });
    return pageEnvelope(
      rows.map(toResponse),
      total,
      page,
      perPage,
      `${this.config.publicBaseUrl}/api/v2/flows/${encodeURIComponent(query.props.orgName)}`,
      {
        search_by_name: query.props.searchByName,
        case_sensitive: query.props.searchByName ? String(query.props.caseSensitive) : undefined,
        archived: query.props.archived ? 'true' : undefined,
      },
    );
  }
}
