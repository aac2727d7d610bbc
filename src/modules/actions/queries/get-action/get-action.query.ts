import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import type { ActionType } from '../../domain/triggers';
import type { ActionResponse } from '../../dto/action.response';

export interface GetActionProps extends OrgScope {
  number: number;
  type: ActionType | null;
}

export class GetActionQuery extends OrgQuery<GetActionProps, ActionResponse> {}
