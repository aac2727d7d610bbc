import { OrgScope, OrgQuery } from '../../../../common/cqrs/org-scoped';
import { RepoResponse } from '../../dto/repo.response';

export interface GetRepoProps extends OrgScope {
  name: string;
  provider?: string;
}

export class GetRepoQuery extends OrgQuery<GetRepoProps, RepoResponse> {}
