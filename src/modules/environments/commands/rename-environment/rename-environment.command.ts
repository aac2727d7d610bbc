import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';

export interface RenameEnvironmentProps extends ActingScope {
  envName: string;
  newName: string;
}

export class RenameEnvironmentCommand extends OrgCommand<RenameEnvironmentProps, string> {}
