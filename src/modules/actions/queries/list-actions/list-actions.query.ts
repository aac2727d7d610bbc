import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import type { ActionType } from '../../domain/triggers';
import type { ActionResponse } from '../../dto/action.response';

export interface ListActionsProps extends OrgScope {
  /** null: every type */
  type: ActionType | null;
}

/** Spec op 11: the org's actions, by number. */
export class ListActionsQuery extends OrgQuery<ListActionsProps, ActionResponse[]> {}
