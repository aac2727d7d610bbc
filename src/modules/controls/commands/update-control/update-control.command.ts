import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';
import { ControlResponse } from '../../dto/control.response';

export interface UpdateControlProps extends ActingScope {
  identifier: string;
  name?: string;
  description?: string;
  links?: Record<string, string>;
}

/** Edit a control: `version` grows by one when anything changed. */
export class UpdateControlCommand extends OrgCommand<UpdateControlProps, ControlResponse> {}
