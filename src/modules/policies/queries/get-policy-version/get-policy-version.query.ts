import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import { PolicyVersionResponse } from '../../dto/policy-version.response';

export class GetPolicyVersionQuery extends OrgQuery<OrgScope & { name: string; version: string }, PolicyVersionResponse> {}
