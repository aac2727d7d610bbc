import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { OrganizationNotFoundError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { OrganizationResponse, toOrganizationResponse } from '../../dto/organization.response';
import { OrganizationReader } from '../../persistence/organization.reader';
import { OrganizationRepository } from '../../persistence/organization.repository';
import { UpdateOrganizationCommand } from './update-organization.command';

@CommandHandler(UpdateOrganizationCommand)
export class UpdateOrganizationHandler implements ICommandHandler<UpdateOrganizationCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly orgs: OrganizationRepository,
    private readonly directory: OrganizationReader,
  ) {}

  async execute(command: UpdateOrganizationCommand): Promise<OrganizationResponse> {
    const org = await this.uow.run(async (manager) => {
      const found = await this.orgs.findByName(manager, command.props.orgName, true);
      if (!found) throw new OrganizationNotFoundError(command.props.orgName);
      found.features = [...new Set(command.props.features)];
      await this.orgs.setFeatures(manager, found.id, found.features);
      return found;
    });
    this.directory.evict(command.props.orgName);
    return toOrganizationResponse(org);
  }
}
