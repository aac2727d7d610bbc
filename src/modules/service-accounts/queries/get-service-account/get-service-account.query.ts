import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import type { ServiceAccountResponse } from '../../dto/service-account.response';

export interface GetServiceAccountProps extends OrgScope {
  name: string;
}

export class GetServiceAccountQuery extends OrgQuery<GetServiceAccountProps, ServiceAccountResponse> {}
