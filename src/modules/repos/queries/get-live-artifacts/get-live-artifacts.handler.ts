import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../../../common/config/app-config';
import { InjectConfig } from '../../../../common/config/config.decorators';
import { NotFoundError } from '../../../../common/errors/app-error';
import { RepoLiveStatusResponse, toRepoLiveStatus } from '../../dto/live-artifacts.response';
import { LiveArtifactsReader } from '../../persistence/live-artifacts.reader';
import { RepoReader } from '../../persistence/repo.reader';
import { GetLiveArtifactsQuery } from './get-live-artifacts.query';

/** The repo (404 when unknown), then what its artifacts run, where, since when. */
@QueryHandler(GetLiveArtifactsQuery)
export class GetLiveArtifactsHandler implements IQueryHandler<GetLiveArtifactsQuery> {
  constructor(
    private readonly repos: RepoReader,
    private readonly live: LiveArtifactsReader,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(query: GetLiveArtifactsQuery): Promise<RepoLiveStatusResponse> {
    const { orgId, orgName, name, provider } = query.props;
    const repo = await this.repos.findByName(orgId, name, provider);
    if (!repo) throw new NotFoundError(`Repo '${name}' not found`);
    const rows = await this.live.live(orgId, { externalId: repo.external_id, provider: repo.provider });
    return toRepoLiveStatus(rows, this.config.publicBaseUrl, orgName, repo.name);
  }
}
