import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import { EnvironmentResponse } from '../../dto/environment.response';

export interface GetEnvironmentProps extends OrgScope {
  envName: string;
}

export class GetEnvironmentQuery extends OrgQuery<GetEnvironmentProps, EnvironmentResponse> {}
