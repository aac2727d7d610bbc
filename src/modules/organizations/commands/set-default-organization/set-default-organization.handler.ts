import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ForbiddenError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { MembershipRepository } from '../../persistence/membership.repository';
import { SetDefaultOrganizationCommand } from './set-default-organization.command';

/** A user's default organization (one at a time); a service account belongs to one org and has none to choose. */
@CommandHandler(SetDefaultOrganizationCommand)
export class SetDefaultOrganizationHandler implements ICommandHandler<SetDefaultOrganizationCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly memberships: MembershipRepository,
  ) {}

  async execute(command: SetDefaultOrganizationCommand): Promise<string> {
    const { orgId, orgName, principal } = command.props;
    if (principal.kind !== 'user') throw new ForbiddenError('A service account has no default organization: it belongs to one');
    const member = await this.uow.run((manager) => this.memberships.setDefault(manager, orgId, principal.id));
    if (!member) throw new ForbiddenError();
    return `Default organization set to '${orgName}'`;
  }
}
