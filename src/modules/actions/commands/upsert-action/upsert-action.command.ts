import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';
import type { ActionTarget } from '../../domain/action-target';
import type { ActionType } from '../../domain/triggers';
import type { ActionResponse } from '../../dto/action.response';

export interface UpsertActionProps extends ActingScope {
  type: ActionType;
  name: string;
  targets: ActionTarget[];
  triggers: string[];
  /** flow names or environment names */
  scopes: string[];
}

export interface UpsertActionResult {
  created: boolean;
  action: ActionResponse;
}

/** Creates the org's action of that name (next number) or replaces its targets, triggers and scopes. */
export class UpsertActionCommand extends OrgCommand<UpsertActionProps, UpsertActionResult> {}
