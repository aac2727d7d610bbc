import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';
import { ControlResponse } from '../../dto/control.response';

export interface SetControlArchivedProps extends ActingScope {
  identifier: string;
  archived: boolean;
}

/** Archive or unarchive a control; idempotent (archiving an archived control returns it unchanged). */
export class SetControlArchivedCommand extends OrgCommand<SetControlArchivedProps, ControlResponse> {}
