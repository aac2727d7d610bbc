import { OrgScope, OrgQuery } from '../../../../common/cqrs/org-scoped';
import { OrganizationResponse } from '../../dto/organization.response';

export interface GetOrganizationProps extends OrgScope {
  callerRole: string;
}

export class GetOrganizationQuery extends OrgQuery<GetOrganizationProps, OrganizationResponse & { role: string }> {}
