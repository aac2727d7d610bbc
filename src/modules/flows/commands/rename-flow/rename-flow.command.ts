import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';

export interface RenameFlowProps extends ActingScope {
  flowName: string;
  newName: string;
}

export class RenameFlowCommand extends OrgCommand<RenameFlowProps, string> {}
