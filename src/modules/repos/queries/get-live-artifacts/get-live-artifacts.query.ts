import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import { RepoLiveStatusResponse } from '../../dto/live-artifacts.response';

export interface GetLiveArtifactsProps extends OrgScope {
  name: string;
  provider?: string;
}

export class GetLiveArtifactsQuery extends OrgQuery<GetLiveArtifactsProps, RepoLiveStatusResponse> {}
