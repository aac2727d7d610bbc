import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';
import { Principal } from '../../../../common/auth/principal';

export interface SetDefaultOrganizationProps extends ActingScope {
  principal: Principal;
}

/** The caller's default organization becomes this one. */
export class SetDefaultOrganizationCommand extends OrgCommand<SetDefaultOrganizationProps, string> {}
