import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../../../common/errors/app-error';
import { ArtifactViews } from '../../artifact-views';
import { ArtifactResponse } from '../../dto/artifact.response';
import { ArtifactCatalogReader } from '../../persistence/artifact-catalog.reader';
import { GetArtifactsQuery } from './get-artifacts.query';

@QueryHandler(GetArtifactsQuery)
export class GetArtifactsHandler implements IQueryHandler<GetArtifactsQuery> {
  constructor(
    private readonly reader: ArtifactCatalogReader,
    private readonly views: ArtifactViews,
  ) {}

  async execute(query: GetArtifactsQuery): Promise<ArtifactResponse | ArtifactResponse[]> {
    const { orgId, orgName, flowName, by, trailName } = query.props;
    const flowId = await this.reader.flowId(orgId, flowName);
    if (!flowId) throw new NotFoundError(`Flow '${flowName}' not found`);
    const where = trailName === undefined ? `flow '${flowName}'` : `trail '${trailName}' of flow '${flowName}'`;
    if ('fingerprint' in by) {
      const rows = await this.reader.byFingerprint(orgId, flowId, by.fingerprint, trailName);
      if (!rows.length) throw new NotFoundError(`Artifact with fingerprint '${by.fingerprint}' not found in ${where}`);
      return (await this.views.present(orgId, orgName, rows.slice(0, 1)))[0];
    }
    const rows = await this.reader.byCommit(orgId, flowId, by.commit, trailName);
    if (!rows.length) throw new NotFoundError(`No artifact built from commit '${by.commit}' found in ${where}`);
    return this.views.present(orgId, orgName, rows);
  }
}
