import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EntityManager } from 'typeorm';
import { BadRequestError, NotFoundError, ValidationError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { ONLY_PHYSICAL } from '../../domain/logical-environments';
import { EnvironmentRepository } from '../../persistence/environment.repository';
import { LOGICAL } from '../../types/environment-type';
import { EnvironmentTypeRegistry } from '../../types/environment-type.registry';
import { CreateEnvironmentCommand } from './create-environment.command';

@CommandHandler(CreateEnvironmentCommand)
export class CreateEnvironmentHandler implements ICommandHandler<CreateEnvironmentCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly registry: EnvironmentTypeRegistry,
    private readonly environments: EnvironmentRepository,
  ) {}

  async execute(command: CreateEnvironmentCommand): Promise<{ created: boolean; message: string }> {
    const p = command.props;
    const types = [...this.registry.names(), LOGICAL];
    if (!types.includes(p.type)) throw new ValidationError({ type: `must be one of ${types.join(', ')}` });
    const logical = p.type === LOGICAL;
    if (!logical && p.includedEnvironments?.length) {
      throw new ValidationError({ included_environments: 'only a logical environment includes other environments' });
    }
    return this.uow.run(async (manager) => {
      const id = await this.environments.insert(manager, {
        orgId: p.orgId,
        name: p.name,
        type: p.type,
        description: p.description ?? '',
        includeScaling: p.includeScaling ?? false,
        requireProvenance: p.requireProvenance ?? false,
        actor: p.actor,
      });
      let envId = id;
      if (!envId) {
        const existing = (await this.environments.lock(manager, p.orgId, p.name))!;
        if (existing.type !== p.type) {
          throw new ValidationError({ type: `environment '${p.name}' exists with type ${existing.type}; the type of an environment cannot change` });
        }
        await this.environments.update(manager, existing.id, {
          description: p.description ?? undefined,
          includeScaling: p.includeScaling ?? undefined,
          requireProvenance: p.requireProvenance ?? undefined,
        });
        envId = existing.id;
      }
      if (logical && p.includedEnvironments) await this.setMembers(manager, p.orgId, envId, p.includedEnvironments);
      return { created: id !== null, message: `Environment '${p.name}' ${id !== null ? 'created' : 'updated'}` };
    });
  }

  private async setMembers(manager: EntityManager, orgId: string, logicalId: string, names: string[]): Promise<void> {
    const found = await this.environments.findMany(manager, orgId, [...new Set(names)]);
    const missing = names.find((n) => !found.some((e) => e.name === n));
    if (missing !== undefined) throw new NotFoundError(`Environment '${missing}' not found`);
    const logical = found.find((e) => e.type === LOGICAL);
    if (logical) throw new BadRequestError(`${ONLY_PHYSICAL}: '${logical.name}' is a logical environment`);
    await this.environments.replaceMembers(manager, orgId, logicalId, found.map((e) => e.id));
  }
}
