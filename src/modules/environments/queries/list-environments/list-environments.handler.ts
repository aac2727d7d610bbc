import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../../../common/config/app-config';
import { InjectConfig } from '../../../../common/config/config.decorators';
import { pageLinks } from '../../../../common/pagination/page-envelope';
import { EnvironmentResponse, toEnvironmentResponse } from '../../dto/environment.response';
import { EnvironmentReader } from '../../persistence/environment.reader';
import { EnvironmentPage, ListEnvironmentsQuery } from './list-environments.query';

/** Page size of a paged list when only `page` is given (the reference's default). */
export const DEFAULT_ENVIRONMENTS_PER_PAGE = 15;

@QueryHandler(ListEnvironmentsQuery)
export class ListEnvironmentsHandler implements IQueryHandler<ListEnvironmentsQuery> {
  constructor(
    private readonly environments: EnvironmentReader,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(query: ListEnvironmentsQuery): Promise<EnvironmentResponse[] | EnvironmentPage> {
    const { orgId, orgName, filter } = query.props;
    const base = this.config.publicBaseUrl;
    if (query.props.page === undefined && query.props.perPage === undefined) {
      return (await this.environments.list(orgId, filter)).rows.map((row) => toEnvironmentResponse(row, orgName, base));
    }
    const page = query.props.page ?? 1;
    const perPage = query.props.perPage ?? DEFAULT_ENVIRONMENTS_PER_PAGE;
    const { rows, total } = await this.environments.list(orgId, filter, { page, perPage });
    const totalPages = Math.max(1, Math.ceil(total / perPage));
    return {
      environments: rows.map((row) => toEnvironmentResponse(row, orgName, base)),
      page,
      per_page: perPage,
      total_pages: totalPages,
      total_count: total,
      _links: pageLinks(
        `${base}/api/v2/environments/${encodeURIComponent(orgName)}`,
        { name: filter.name, sort: filter.sort, sort_direction: filter.direction },
        page,
        perPage,
        totalPages,
      ),
    };
  }
}
