import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../../../common/config/app-config';
import { InjectConfig } from '../../../../common/config/config.decorators';
import { pageLinks } from '../../../../common/pagination/page-envelope';
import { toRepoResponse } from '../../dto/repo.response';
import { RepoReader } from '../../persistence/repo.reader';
import { ListReposQuery, RepoPage } from './list-repos.query';

/** Page size when none is given (the reference's default). */
export const DEFAULT_REPOS_PER_PAGE = 15;

@QueryHandler(ListReposQuery)
export class ListReposHandler implements IQueryHandler<ListReposQuery> {
  constructor(
    private readonly repos: RepoReader,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(query: ListReposQuery): Promise<RepoPage> {
    const { orgId, orgName, filter } = query.props;
    const page = query.props.page ?? 1;
    const perPage = query.props.perPage ?? DEFAULT_REPOS_PER_PAGE;
    const { rows, total } = await this.repos.list(orgId, filter, { page, perPage });
    const totalPages = Math.max(1, Math.ceil(total / perPage));
    return {
      repos: rows.map(toRepoResponse),
      page,
      per_page: perPage,
      total_pages: totalPages,
      total_count: total,
      _links: pageLinks(
        `${this.config.publicBaseUrl}/api/v2/repos/${encodeURIComponent(orgName)}`,
        {
          name: filter.name,
          search: filter.search,
          provider: filter.provider,
          repo_id: filter.repoId,
          // repeated, as the client sent it: a link without it would page through every repo
          tag: filter.tags,
          sort_direction: filter.direction,
        },
        page,
        perPage,
        totalPages,
      ),
    };
  }
}
