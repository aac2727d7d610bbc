import type { Role } from '../../../../common/auth/principal';
import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';
import type { ServiceAccountResponse } from '../../dto/service-account.response';

export interface CreateServiceAccountProps extends ActingScope {
  name: string;
  description: string;
  role: Role;
}

/** A non-human identity of the org, with a role; its keys are created separately. */
export class CreateServiceAccountCommand extends OrgCommand<CreateServiceAccountProps, ServiceAccountResponse> {}
