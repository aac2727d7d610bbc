import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { OrganizationNotFoundError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { OrganizationResponse, toOrganizationResponse } from '../../dto/organization.response';
import { OrganizationDirectory } from '../../persistence/organization-directory';
import { OrganizationEntity } from '../../persistence/organization.entity';
import { UpdateOrganizationCommand } from './update-organization.command';

@CommandHandler(UpdateOrganizationCommand)
export class UpdateOrganizationHandler implements ICommandHandler<UpdateOrganizationCommand> {
  constructor(private readonly uow: UnitOfWork, private readonly directory: OrganizationDirectory) {}

  async execute(command: UpdateOrganizationCommand): Promise<OrganizationResponse> {
    const org = await this.uow.run(async (manager) => {
      const found = await manager.findOne(OrganizationEntity, {
        where: { name: command.orgName },
        lock: { mode: 'pessimistic_write' },
      });
      if (!found) throw new OrganizationNotFoundError(command.orgName);
      found.features = [...new Set(command.features)];
      await manager.update(OrganizationEntity, { id: found.id }, { features: found.features });
      return found;
    });
    this.directory.evict(command.orgName);
    return toOrganizationResponse(org);
  }
}
