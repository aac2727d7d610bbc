import { NotFoundError } from '../../../common/errors/app-error';
import { publicTarget } from '../domain/action-target';
import { ActionRow } from '../persistence/action.reader';

export class ActionNotFoundError extends NotFoundError {
  constructor() {
    super('Action not found');
  }
}

/** The action record of the spec (webhook secrets are never shown). Timestamps are Unix seconds. */
export interface ActionResponse {
  name: string;
  type: string;
  number: number;
  targets: Array<Record<string, unknown>>;
  triggers: string[];
  created_by: string;
  is_created_from_chat_app: boolean;
  /** the reference's name of the same flag */
  is_created_from_slack_app: boolean;
  last_modified_at: number;
  is_failing: boolean;
  last_success_timestamp: number | null;
  last_failure_timestamp: number | null;
  created_at: number;
  flows: string[];
  environments: string[];
}

export function toActionResponse(row: ActionRow): ActionResponse {
  const success = row.last_success_at === null ? null : Number(row.last_success_at);
  const failure = row.last_failure_at === null ? null : Number(row.last_failure_at);
  return {
    name: row.name,
    type: row.type,
    number: Number(row.number),
    targets: row.targets.map((t) => publicTarget(t) as Record<string, unknown>),
    triggers: row.triggers,
    created_by: row.created_by,
    is_created_from_chat_app: false,
    is_created_from_slack_app: false,
    last_modified_at: Number(row.last_modified_at),
    // Failing while the latest attempt (of any of its deliveries) failed.
    is_failing: failure !== null && (success === null || failure > success),
    last_success_timestamp: success,
    last_failure_timestamp: failure,
    created_at: Number(row.created_at),
    flows: row.type === 'flow' ? row.scopes : [],
    environments: row.type === 'env' ? row.scopes : [],
  };
}
