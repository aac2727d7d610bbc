import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../../../common/config/app-config';
import { InjectConfig } from '../../../../common/config/config.decorators';
import { RepoReader } from '../../persistence/repo.reader';
import { ListRepoTagsQuery, RepoTagChoices } from './list-repo-tags.query';

@QueryHandler(ListRepoTagsQuery)
export class ListRepoTagsHandler implements IQueryHandler<ListRepoTagsQuery> {
  constructor(
    private readonly repos: RepoReader,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(query: ListRepoTagsQuery): Promise<RepoTagChoices> {
    return {
      tag_choices: await this.repos.tagChoices(query.props.orgId),
      _links: { self: `${this.config.publicBaseUrl}/api/v2/repos/${encodeURIComponent(query.props.orgName)}/tags` },
    };
  }
}
