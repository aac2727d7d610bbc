import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';

export interface DeleteServiceAccountProps extends ActingScope {
  name: string;
}

/** Deletes the account and its keys (they stop working at once, in every process). */
export class DeleteServiceAccountCommand extends OrgCommand<DeleteServiceAccountProps, string> {}
