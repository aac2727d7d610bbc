import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError, NotFoundError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { FlowRenameRepository } from '../../persistence/flow-rename.repository';
import { FlowRepository } from '../../persistence/flow.repository';
import { RenameFlowCommand } from './rename-flow.command';

/**
 * Renames a flow and records the rename (its history). Nothing else is written: trails, artifacts and
 * attestations refer to the flow by id, so every record is reachable under the new name at once, and the old
 * name answers with a redirect to the new one (RenameRedirects, in the exception filter) until a flow is created with it.
 */
@CommandHandler(RenameFlowCommand)
export class RenameFlowHandler implements ICommandHandler<RenameFlowCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly flows: FlowRepository,
    private readonly renames: FlowRenameRepository,
  ) {}

  async execute(command: RenameFlowCommand): Promise<string> {
    const { orgId, flowName, newName, actor } = command.props;
    await this.uow.run(async (manager) => {
      const flow = await this.flows.findByName(manager, orgId, flowName);
      if (!flow) throw new NotFoundError(`Flow '${flowName}' not found`);
      if (newName === flowName) return;
      if (await this.flows.findByName(manager, orgId, newName)) throw new ConflictError(`Flow '${newName}' already exists`);
      await this.flows.lock(manager, flow.id);
      await this.flows.rename(manager, flow.id, newName);
      await this.renames.record(manager, orgId, flow.id, flowName, newName, actor);
    });
    return `Flow '${flowName}' was renamed to '${newName}'`;
  }
}
