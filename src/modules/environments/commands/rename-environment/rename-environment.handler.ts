import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError, NotFoundError } from '../../../../common/errors/app-error';
import { sqlState } from '../../../../common/errors/database-errors';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { EvidenceLog } from '../../../evidence-log/evidence-log.module';
import { EnvironmentEventRepository } from '../../persistence/environment-event.repository';
import { EnvironmentRenameRepository } from '../../persistence/environment-rename.repository';
import { EnvironmentRepository } from '../../persistence/environment.repository';
import { RenameEnvironmentCommand } from './rename-environment.command';

/**
 * Renames an environment and records the rename (its history). Snapshots, runs and the event log refer to it
 * by id, so all of it is reachable under the new name; snapshots keep the names they were taken with (evidence
 * is not rewritten). The old name redirects (308) to the new one until an environment is created with it. The
 * event log gets a `renamed` entry. The evidence log's sequencer is held off for the transaction, so a snapshot
 * it renders is read under one name throughout (it finds the environment by id, then reads by name).
 */
@CommandHandler(RenameEnvironmentCommand)
export class RenameEnvironmentHandler implements ICommandHandler<RenameEnvironmentCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly environments: EnvironmentRepository,
    private readonly renames: EnvironmentRenameRepository,
    private readonly events: EnvironmentEventRepository,
    private readonly evidenceLog: EvidenceLog,
  ) {}

  async execute(command: RenameEnvironmentCommand): Promise<string> {
    const { orgId, envName, newName, actor } = command.props;
    const taken = () => new ConflictError(`Environment '${newName}' already exists`);
    try {
      await this.uow.run(async (manager) => {
        await this.evidenceLog.holdSequencing(manager);
        const env = await this.environments.lock(manager, orgId, envName);
        if (!env) throw new NotFoundError(`Environment '${envName}' not found`);
        if (newName === envName) return;
        if (await this.environments.find(orgId, newName, manager)) throw taken();
        await this.environments.rename(manager, orgId, env.id, newName);
        await this.renames.record(manager, orgId, env.id, envName, newName, actor);
        await this.events.appendRenamed(
          manager,
          orgId,
          { id: env.id, lastSnapshot: env.last_snapshot, compliant: env.compliant === true },
          `renamed from '${envName}' to '${newName}' by ${actor}`,
        );
      });
    } catch (error) {
      // Another environment took `newName` in a transaction that committed after the check (the unique key).
      if (sqlState(error) === '23505') throw taken();
      throw error;
    }
    return `Environment '${envName}' was renamed to '${newName}'`;
  }
}
