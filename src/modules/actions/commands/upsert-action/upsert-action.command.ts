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
  /** Update this action (by number) instead of the one named `name`: its name changes to `name`. */
  number?: number;
}

export interface UpsertActionResult {
  created: boolean;
  action: ActionResponse;
}

/** What both environment-action routes (the current and the legacy one) take. */
export interface EnvironmentActionBody {
  name: string;
  targets: unknown[];
  triggers: string[];
  environments: string[];
}

/** Creates the org's action of that name (next number) or replaces its targets, triggers and scopes. */
export class UpsertActionCommand extends OrgCommand<UpsertActionProps, UpsertActionResult> {
  /** An environment action from its request body (the current and the legacy route). */
  static forEnvironments(scope: ActingScope, body: EnvironmentActionBody, number?: number): UpsertActionCommand {
    return new UpsertActionCommand({
      ...scope,
      type: 'env',
      name: body.name,
      targets: body.targets as ActionTarget[],
      triggers: body.triggers,
      scopes: body.environments,
      number,
    });
  }
}
