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
    const spec = command.props.templateSource === null ? null : parseFlowTemplate(command.props.templateSource);
    const created = await this.uow.run(async (manager) => {
      const flow = await this.flows.ensureFlow(manager, command.props.orgId, command.props.name, command.props.actor, true);
      // Under the flow's lock, so two uploads of the same template make one version.
      const locked = await this.flows.lockFlow(manager, flow.id);
      await this.flows.updateFlow(manager, flow.id, {
        description: command.props.description,
        visibility: command.props.visibility,
        repoUrl: command.props.repoUrl,
      });
      if (spec) {
        await this.flows.saveTemplateVersion(manager, {
          orgId: command.props.orgId,
          flowId: flow.id,
          currentTemplateId: locked.templateId,
          spec,
          source: command.props.templateSource!,
          makeCurrent: true,
        });
      }
      return flow.created;
    });
    return { created, message: `Flow '${command.props.name}' was ${created ? 'created' : 'updated'}` };
  }
}
