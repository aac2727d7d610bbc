import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';

export interface ArchiveEnvironmentProps extends ActingScope {
  envName: string;
}

/** Archive an environment: hidden from lists, readable, takes no reports. */
export class ArchiveEnvironmentCommand extends OrgCommand<ArchiveEnvironmentProps, string> {}
