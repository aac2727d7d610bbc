import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { BadRequestError, NotFoundError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { EnvironmentRepository } from '../../persistence/environment.repository';
import { LOGICAL } from '../../types/environment-type';
import { ONLY_PHYSICAL } from '../../domain/logical-environments';
import { JoinEnvironmentCommand } from './join-environment.command';

/** 404 for either environment missing (the logical one first), then 400 naming the rule. */
@CommandHandler(JoinEnvironmentCommand)
export class JoinEnvironmentHandler implements ICommandHandler<JoinEnvironmentCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly environments: EnvironmentRepository,
  ) {}

  execute(command: JoinEnvironmentCommand): Promise<string> {
    const { orgId, logicalName, physicalName } = command.props;
    return this.uow.run(async (manager) => {
      const logical = await this.environments.lock(manager, orgId, logicalName);
      if (!logical) throw new NotFoundError(`Environment '${logicalName}' not found`);
      const [physical] = await this.environments.findMany(manager, orgId, [physicalName]);
      if (!physical) throw new NotFoundError(`Environment '${physicalName}' not found`);
      if (logical.type !== LOGICAL) throw new BadRequestError(`${ONLY_PHYSICAL}: '${logicalName}' is not a logical environment`);
      if (physical.type === LOGICAL) throw new BadRequestError(`${ONLY_PHYSICAL}: '${physicalName}' is a logical environment`);
      await this.environments.addMembers(manager, orgId, logical.id, [physical.id]);
      return 'OK';
    });
  }
}
