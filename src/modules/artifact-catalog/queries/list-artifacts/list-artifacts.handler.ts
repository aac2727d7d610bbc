import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../../../common/errors/app-error';
import { ArtifactViews } from '../../artifact-views';
import { ArtifactResponse } from '../../dto/artifact.response';
import { ArtifactCatalogReader } from '../../persistence/artifact-catalog.reader';
import { ListArtifactsQuery } from './list-artifacts.query';

/** The reference's page size when none is given. */
export const DEFAULT_ARTIFACTS_PER_PAGE = 15;

@QueryHandler(ListArtifactsQuery)
export class ListArtifactsHandler implements IQueryHandler<ListArtifactsQuery> {
  constructor(
    private readonly reader: ArtifactCatalogReader,
    private readonly views: ArtifactViews,
  ) {}

  async execute(query: ListArtifactsQuery): Promise<ArtifactResponse[]> {
    const { orgId, orgName, flowName, repoName } = query.props;
    const page = query.props.page ?? 1;
    const perPage = query.props.perPage ?? DEFAULT_ARTIFACTS_PER_PAGE;
    let flowId: string | null = null;
    if (flowName !== undefined) {
      flowId = await this.reader.flowId(orgId, flowName);
      if (!flowId) throw new NotFoundError(`Flow '${flowName}' not found`);
    }
    const { rows } =
      repoName !== undefined ? await this.reader.pageByRepo(orgId, repoName, flowId, page, perPage) : await this.reader.page(orgId, flowId, page, perPage);
    return this.views.present(orgId, orgName, rows);
  }
}
