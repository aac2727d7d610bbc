import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';

export interface ArchiveFlowProps extends ActingScope {
  flowName: string;
}

/** Archive a flow: hidden from lists, readable, refuses new evidence. */
export class ArchiveFlowCommand extends OrgCommand<ArchiveFlowProps, string> {}
