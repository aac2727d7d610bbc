import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';

export interface CreateEnvironmentProps extends ActingScope {
  name: string;
  type: string;
  description?: string | null;
  includeScaling?: boolean | null;
  requireProvenance?: boolean | null;
  includedEnvironments?: string[] | null;
}

/** Create an environment (201) or update the one of that name (200); only the fields sent change. */
export class CreateEnvironmentCommand extends OrgCommand<CreateEnvironmentProps, { created: boolean; message: string }> {}
