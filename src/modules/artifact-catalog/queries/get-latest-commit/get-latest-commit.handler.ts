import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../../../common/errors/app-error';
import { ArtifactCatalogReader } from '../../persistence/artifact-catalog.reader';
import { GetLatestCommitQuery } from './get-latest-commit.query';

@QueryHandler(GetLatestCommitQuery)
export class GetLatestCommitHandler implements IQueryHandler<GetLatestCommitQuery> {
  constructor(private readonly reader: ArtifactCatalogReader) {}

  async execute(query: GetLatestCommitQuery): Promise<{ latest_commit: string | null }> {
    const { orgId, flowName, fingerprint, branch } = query.props;
    const flowId = await this.reader.flowId(orgId, flowName);
    if (!flowId) throw new NotFoundError(`Flow '${flowName}' not found`);
    const found = await this.reader.latestCommit(orgId, flowId, fingerprint, branch);
    if (!found.found) throw new NotFoundError(`Artifact with fingerprint '${fingerprint}' not found in flow '${flowName}'`);
    return { latest_commit: found.commit };
  }
}
