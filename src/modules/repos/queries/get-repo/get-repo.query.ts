import { Query } from '@nestjs/cqrs';
import { RepoResponse } from '../../dto/repo.response';

export class GetRepoQuery extends Query<RepoResponse> {
  constructor(
    readonly orgId: string,
    readonly name: string,
  ) {
    super();
  }
}
