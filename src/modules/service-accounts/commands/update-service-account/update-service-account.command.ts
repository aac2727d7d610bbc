import type { Role } from '../../../../common/auth/principal';
import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';
import type { ServiceAccountResponse } from '../../dto/service-account.response';

export interface UpdateServiceAccountProps extends ActingScope {
  name: string;
  description?: string;
  role?: Role;
}

/** Changes an account's description and/or role; a new role applies to its keys at once, in every process. */
export class UpdateServiceAccountCommand extends OrgCommand<UpdateServiceAccountProps, ServiceAccountResponse> {}
