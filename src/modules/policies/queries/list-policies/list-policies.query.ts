import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import { PolicyResponse } from '../../dto/policy.response';

export class ListPoliciesQuery extends OrgQuery<OrgScope, PolicyResponse[]> {}
