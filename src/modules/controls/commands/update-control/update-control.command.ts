import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';
import { ControlResponse } from '../../dto/control.response';

export interface UpdateControlProps extends ActingScope {
  identifier: string;
  /** null: as if not sent. */
  name?: string | null;
  description?: string | null;
  links?: Record<string, string> | null;
}

/** Edit a control: `version` grows by one when anything changed. */
export class UpdateControlCommand extends OrgCommand<UpdateControlProps, ControlResponse> {}
