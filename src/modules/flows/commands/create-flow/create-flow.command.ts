import { Command } from '@nestjs/cqrs';

export interface CreateFlowResult {
  created: boolean;
  message: string;
}

/** Create a flow, or update the fields sent; `templateSource` (YAML) makes a new template version. */
export class CreateFlowCommand extends Command<CreateFlowResult> {
  constructor(
    readonly orgId: string,
    readonly actor: string,
    readonly name: string,
    readonly description: string | undefined,
    readonly visibility: string | undefined,
    readonly repoUrl: string | null | undefined,
    readonly templateSource: string | null,
  ) {
    super();
  }
}
