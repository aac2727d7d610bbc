import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { FlowRepository } from '../../persistence/flow.repository';
import { ArchiveFlowCommand } from './archive-flow.command';

/**
 * Archives a flow. Its trails, artifacts and attestations stay readable; any new evidence for it (a trail, an
 * artifact, an attestation, by any write path) is refused by the database (see the migrations
 * AddArchiveAndRename and LockFlowsAgainstArchive) with a 400. The archive waits for the writes in flight into
 * the flow (FlowRepository.archive), so none commits into it after the 200. Archiving an archived flow changes
 * nothing.
 */
@CommandHandler(ArchiveFlowCommand)
export class ArchiveFlowHandler implements ICommandHandler<ArchiveFlowCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly flows: FlowRepository,
  ) {}

  async execute(command: ArchiveFlowCommand): Promise<string> {
    const { orgId, flowName, actor } = command.props;
    const found = await this.uow.run((manager) => this.flows.archive(manager, orgId, flowName, actor));
    if (!found) throw new NotFoundError(`Flow '${flowName}' not found`);
    return `Flow '${flowName}' was archived`;
  }
}
