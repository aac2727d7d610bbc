import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError, NotFoundError } from '../../../../common/errors/app-error';
import { sqlState } from '../../../../common/errors/database-errors';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { EvidenceLog } from '../../../evidence-log/evidence-log.module';
import { FlowDirectory } from '../../flow-directory';
import { FlowRenameRepository } from '../../persistence/flow-rename.repository';
import { FlowRepository } from '../../persistence/flow.repository';
import { RenameFlowCommand } from './rename-flow.command';

/**
 * Renames a flow and records the rename (its history). Nothing else is written: trails, artifacts and
 * attestations refer to the flow by id, so every record is reachable under the new name at once, and the old
 * name answers with a redirect to the new one (RenameRedirects, in the exception filter) until a flow is created with it.
 * Records written before the rename keep showing the name they were written under (`flowNameAt`, by the rename's
 * time): so that no evidence log round renders one of them while the rename is half done, the rename holds the
 * sequencer off for its transaction and stamps its time once it holds it. It also waits for the flow's writers
 * in progress (`FlowDirectory.holdWritersOf`: the attestations' flow counter), so a record committed before the
 * rename never gets a time after the rename's and changes name when the rename commits.
 */
@CommandHandler(RenameFlowCommand)
export class RenameFlowHandler implements ICommandHandler<RenameFlowCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly flows: FlowRepository,
    private readonly renames: FlowRenameRepository,
    private readonly evidenceLog: EvidenceLog,
    private readonly directory: FlowDirectory,
  ) {}

  async execute(command: RenameFlowCommand): Promise<string> {
    const { orgId, flowName, newName, actor } = command.props;
    const notFound = () => new NotFoundError(`Flow '${flowName}' not found`);
    const taken = () => new ConflictError(`Flow '${newName}' already exists`);
    try {
      await this.uow.run(async (manager) => {
        if (!(await this.flows.findByName(manager, orgId, flowName))) throw notFound();
        if (newName === flowName) return;
        await this.evidenceLog.holdSequencing(manager);
        // Taken by name, under the lock: a rename of this flow that committed while this one waited has moved
        // the row away from `flowName` (then 404, which the filter answers with a redirect to its new name), so
        // the name recorded as old is the one the flow had when this rename took it.
        const flow = await this.flows.lockByName(manager, orgId, flowName);
        if (!flow) throw notFound();
        if (await this.flows.findByName(manager, orgId, newName)) throw taken();
        await this.flows.rename(manager, flow.id, newName);
        await this.directory.holdWritersOf(manager, orgId, flow.id);
        await this.renames.record(manager, orgId, flow.id, flowName, newName, actor);
      });
    } catch (error) {
      // Another flow took `newName` in a transaction that committed after the check above (the unique key).
      if (sqlState(error) === '23505') throw taken();
      throw error;
    }
    return `Flow '${flowName}' was renamed to '${newName}'`;
  }
}
