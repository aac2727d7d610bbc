import { Principal } from '../../../../common/auth/principal';
import { OrgScope, OrgQuery } from '../../../../common/cqrs/org-scoped';
import { OrganizationResponse } from '../../dto/organization.response';

export interface GetOrganizationProps extends OrgScope {
  callerRole: string;
  /** The caller: for a user, whether this is their default organization. */
  caller?: Principal;
}

export class GetOrganizationQuery extends OrgQuery<GetOrganizationProps, OrganizationResponse & { role: string; is_default: boolean }> {}
