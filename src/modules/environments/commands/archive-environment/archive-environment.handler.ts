import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { EnvironmentRepository } from '../../persistence/environment.repository';
import { ArchiveEnvironmentCommand } from './archive-environment.command';

/** Archives an environment; its snapshots and log stay readable, a report is 400. Archiving twice changes nothing. */
@CommandHandler(ArchiveEnvironmentCommand)
export class ArchiveEnvironmentHandler implements ICommandHandler<ArchiveEnvironmentCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly environments: EnvironmentRepository,
  ) {}

  async execute(command: ArchiveEnvironmentCommand): Promise<string> {
    const { orgId, envName, actor } = command.props;
    const found = await this.uow.run((manager) => this.environments.archive(manager, orgId, envName, actor));
    if (!found) throw new NotFoundError(`Environment '${envName}' not found`);
    return `Environment '${envName}' was archived`;
  }
}
