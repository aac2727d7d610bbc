import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';

export interface CreateFlowResult {
  created: boolean;
  message: string;
}

export interface CreateFlowProps extends ActingScope {
  name: string;
  description?: string;
  visibility?: string;
  repoUrl?: string | null;
  templateSource: string | null;
}

/** Create a flow, or update the fields sent; `templateSource` (YAML) makes a new template version. */
export class CreateFlowCommand extends OrgCommand<CreateFlowProps, CreateFlowResult> {}
