import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { NotFoundError } from '../../../../common/errors/app-error';
import { RepoRecord, RepoResponse, toRepoResponse } from '../../dto/repo.response';
import { GetRepoQuery } from './get-repo.query';

/** A repo by its name (`owner/repo`); when two provider repos share a name, the most recently updated. */
@QueryHandler(GetRepoQuery)
export class GetRepoHandler implements IQueryHandler<GetRepoQuery> {
  constructor(private readonly dataSource: DataSource) {}

  async execute(query: GetRepoQuery): Promise<RepoResponse> {
    const rows: RepoRecord[] = await this.dataSource.query(
      `SELECT id, external_id, name, url, provider, description, namespace_path, additional_info, tags, created_at, updated_at
       FROM repos WHERE org_id = $1 AND name = $2
       ORDER BY updated_at DESC LIMIT 1`,
      [query.orgId, query.name],
    );
    if (!rows.length) throw new NotFoundError(`Repo '${query.name}' not found`);
    return toRepoResponse(rows[0]);
  }
}
