import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../../../common/errors/app-error';
import { RepoResponse, toRepoResponse } from '../../dto/repo.response';
import { RepoReader } from '../../persistence/repo.reader';
import { GetRepoQuery } from './get-repo.query';

@QueryHandler(GetRepoQuery)
export class GetRepoHandler implements IQueryHandler<GetRepoQuery> {
  constructor(private readonly repos: RepoReader) {}

  async execute(query: GetRepoQuery): Promise<RepoResponse> {
    const row = await this.repos.findByName(query.props.orgId, query.props.name, query.props.provider);
    if (!row) throw new NotFoundError(`Repo '${query.props.name}' not found`);
    return toRepoResponse(row);
  }
}
