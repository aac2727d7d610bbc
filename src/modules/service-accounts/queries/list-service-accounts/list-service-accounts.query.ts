import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import type { ServiceAccountResponse } from '../../dto/service-account.response';

export class ListServiceAccountsQuery extends OrgQuery<OrgScope, ServiceAccountResponse[]> {}
