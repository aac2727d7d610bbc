import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import { PolicyResponse } from '../../dto/policy.response';

export class GetPolicyQuery extends OrgQuery<OrgScope & { name: string }, PolicyResponse> {}
