import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import { BuildPage } from '../../dto/build.response';

export interface ListBuildsProps extends OrgScope {
  page?: number;
  perPage?: number;
  repoId?: string;
  repoName?: string;
  startTs?: number;
  endTs?: number;
}

export class ListBuildsQuery extends OrgQuery<ListBuildsProps, BuildPage> {}
