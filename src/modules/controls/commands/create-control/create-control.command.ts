import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';
import { ControlResponse } from '../../dto/control.response';

export interface CreateControlProps extends ActingScope {
  identifier: string;
  name: string;
  description?: string | null;
  links?: Record<string, string> | null;
}

/** Create a control (409 when the identifier is taken). */
export class CreateControlCommand extends OrgCommand<CreateControlProps, ControlResponse> {}
