import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { BETA_FEATURES } from '../../../../common/auth/principal';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { OrganizationReader } from '../../persistence/organization.reader';
import { OrganizationRepository } from '../../persistence/organization.repository';
import { SetExperimentalFeaturesCommand } from './set-experimental-features.command';

/**
 * The org admin's switch for beta features: on is every beta feature the service has, off is none (the
 * operator can still set them one by one). This process forgets the org at once; others within their cache time.
 */
@CommandHandler(SetExperimentalFeaturesCommand)
export class SetExperimentalFeaturesHandler implements ICommandHandler<SetExperimentalFeaturesCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly orgs: OrganizationRepository,
    private readonly directory: OrganizationReader,
  ) {}

  async execute(command: SetExperimentalFeaturesCommand): Promise<string> {
    const { orgId, orgName, enabled } = command.props;
    await this.uow.run((manager) => this.orgs.setFeatures(manager, orgId, enabled ? [...BETA_FEATURES] : []));
    this.directory.evict(orgName);
    return `Experimental features ${enabled ? 'enabled' : 'disabled'} for organization '${orgName}'`;
  }
}
