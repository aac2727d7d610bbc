import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError, OrganizationNotFoundError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { OPERATOR, UserAccounts } from '../../../identity/identity.module';
import { MembershipRepository } from '../../persistence/membership.repository';
import { OrganizationReader } from '../../persistence/organization.reader';
import { OrganizationRepository } from '../../persistence/organization.repository';
import { AddedMember, AddMemberCommand } from './add-member.command';

/** Adds a user (created on first use) to an org with a role and issues a personal API key, shown once. */
@CommandHandler(AddMemberCommand)
export class AddMemberHandler implements ICommandHandler<AddMemberCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserAccounts,
    private readonly orgs: OrganizationRepository,
    private readonly memberships: MembershipRepository,
    private readonly directory: OrganizationReader,
  ) {}

  async execute(command: AddMemberCommand): Promise<AddedMember> {
    const added = await this.uow.run(async (manager) => {
      const org = await this.orgs.findByName(manager, command.props.orgName);
      if (!org) throw new OrganizationNotFoundError(command.props.orgName);
      const user = await this.users.findOrCreateUser(manager, command.props.email);
      if (!(await this.memberships.insert(manager, org.id, user.id, command.props.role))) {
        // A concurrent add of the same user waited for the first to commit: its row is visible to this statement.
        const existing = await this.memberships.find(manager, org.id, user.id);
        throw new ConflictError(`${user.email} is already a member of '${org.name}'${existing ? ` (role ${existing.role})` : ''}`);
      }
      // The user's personal keys act in this org from now on: each is recorded in its log before the new one.
      await this.users.admitKeys(manager, user, { orgId: org.id, orgName: org.name }, OPERATOR);
      const apiKey = await this.users.issuePersonalKey(manager, user, { orgId: org.id, orgName: org.name }, OPERATOR);
      return { email: user.email, role: command.props.role, api_key: apiKey };
    });
    this.directory.evict(command.props.orgName);
    return added;
  }
}
