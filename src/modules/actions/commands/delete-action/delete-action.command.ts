import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';
import type { ActionType } from '../../domain/triggers';

export interface DeleteActionProps extends ActingScope {
  number: number;
  /** Only an action of this type (the legacy environments-notification route); null: any. */
  type: ActionType | null;
}

/** Deletes an action: it fires no more (deliveries already made keep their history; its number is not reused). */
export class DeleteActionCommand extends OrgCommand<DeleteActionProps, string> {}
