import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { parseFlowTemplate } from '../../domain/flow-template';
import { FlowDirectory } from '../../flow-directory';
import { CreateFlowCommand, CreateFlowResult } from './create-flow.command';

@CommandHandler(CreateFlowCommand)
export class CreateFlowHandler implements ICommandHandler<CreateFlowCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly flows: FlowDirectory,
  ) {}

  async execute(command: CreateFlowCommand): Promise<CreateFlowResult> {
    // Validate the template before anything is written.
    const spec = command.templateSource === null ? null : parseFlowTemplate(command.templateSource);
    const created = await this.uow.run(async (manager) => {
      const flow = await this.flows.ensureFlow(manager, command.orgId, command.name, command.actor);
      // Under the flow's lock, so two uploads of the same template make one version.
      const locked = await this.flows.lockFlow(manager, flow.id);
      await this.flows.updateFlow(manager, flow.id, {
        description: command.description,
        visibility: command.visibility,
        repoUrl: command.repoUrl,
      });
      if (spec) {
        await this.flows.saveTemplateVersion(manager, {
          orgId: command.orgId,
          flowId: flow.id,
          currentTemplateId: locked.templateId,
          spec,
          source: command.templateSource!,
          makeCurrent: true,
        });
      }
      return flow.created;
    });
    return { created, message: `Flow '${command.name}' was ${created ? 'created' : 'updated'}` };
  }
}
