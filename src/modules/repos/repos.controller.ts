import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CurrentOrg } from '../../common/auth/auth.decorators';
import { OrgContext } from '../../common/auth/principal';
import { GetRepoQuery } from './queries/get-repo/get-repo.query';
import { GetLiveArtifactsQuery } from './queries/get-live-artifacts/get-live-artifacts.query';
import { GetRepoQueryDto } from './queries/get-repo/get-repo.request.dto';
import { ListRepoTagsQuery } from './queries/list-repo-tags/list-repo-tags.query';
import { ListReposQuery } from './queries/list-repos/list-repos.query';
import { ListReposQueryDto } from './queries/list-repos/list-repos.request.dto';
import { orgScope } from '../../common/cqrs/org-scoped';
import { JoinedPathPipe } from '../../common/http/joined-path.pipe';
import { ApiSuccess } from '../../common/openapi/response-schema';
import { REPO_LIVE_STATUS_SCHEMA, REPO_PAGE_SCHEMA, REPO_SCHEMA, REPO_TAGS_SCHEMA } from './dto/repo.schema';

@Controller('repos')
export class ReposController {
  constructor(private readonly queryBus: QueryBus) {}

  /** Paginated, sorted by name; filters `name` (exact), `search`, `provider`, `repo_id`, `tag` (repeatable). */
  @Get(':org')
  @ApiSuccess(REPO_PAGE_SCHEMA)
  list(@CurrentOrg() org: OrgContext, @Query() q: ListReposQueryDto) {
    const tags = q.tag === undefined ? [] : Array.isArray(q.tag) ? q.tag : [q.tag];
    return this.queryBus.execute(
      new ListReposQuery({
        ...orgScope(org),
        filter: { name: q.name, search: q.search, provider: q.provider, repoId: q.repo_id, tags, direction: q.sort_direction ?? 'asc' },
        page: q.page,
        perPage: q.per_page,
      }),
    );
  }

  /** Repo tag choices. Declared before the repo-name route, so `tags` is never read as a repo name. */
  @Get(':org/tags')
  @ApiSuccess(REPO_TAGS_SCHEMA)
  tags(@CurrentOrg() org: OrgContext) {
    return this.queryBus.execute(new ListRepoTagsQuery(orgScope(org)));
  }

  /** What a repo's artifacts run now, where (`{repo}` may contain `/`, like the repo route below, after which it cannot come). */
  @Get(':org/live-artifacts/*repo')
  @ApiSuccess(REPO_LIVE_STATUS_SCHEMA)
  live(@CurrentOrg() org: OrgContext, @Param('repo', JoinedPathPipe) repo: string, @Query() q: GetRepoQueryDto) {
    return this.queryBus.execute(new GetLiveArtifactsQuery({ ...orgScope(org), name: repo, provider: q.provider }));
  }

  /**
   * Repo names contain a slash (`owner/repo`): both `owner%2Frepo` and a raw `owner/repo` reach this route.
   * Other `/repos/{org}/<literal>` routes (tags above) must be declared before it.
   */
  @Get(':org/*name')
  @ApiSuccess(REPO_SCHEMA)
  get(@CurrentOrg() org: OrgContext, @Param('name', JoinedPathPipe) name: string, @Query() q: GetRepoQueryDto) {
    return this.queryBus.execute(new GetRepoQuery({ ...orgScope(org), name, provider: q.provider }));
  }
}
