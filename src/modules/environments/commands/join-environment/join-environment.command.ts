import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';

export interface JoinEnvironmentProps extends ActingScope {
  logicalName: string;
  physicalName: string;
}

/** Add a physical environment to a logical one; joining twice changes nothing. */
export class JoinEnvironmentCommand extends OrgCommand<JoinEnvironmentProps, string> {}
