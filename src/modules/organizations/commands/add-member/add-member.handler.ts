import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError, OrganizationNotFoundError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { ApiKeyRepository } from '../../../identity/persistence/api-key.repository';
import { MembershipEntity } from '../../persistence/membership.entity';
import { OrganizationDirectory } from '../../persistence/organization-directory';
import { OrganizationEntity } from '../../persistence/organization.entity';
import { findOrCreateUser } from '../../persistence/users';
import { AddedMember, AddMemberCommand } from './add-member.command';

/** Adds a user (created on first use) to an org with a role and issues a personal API key, shown once. */
@CommandHandler(AddMemberCommand)
export class AddMemberHandler implements ICommandHandler<AddMemberCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly keys: ApiKeyRepository,
    private readonly directory: OrganizationDirectory,
  ) {}

  async execute(command: AddMemberCommand): Promise<AddedMember> {
    const added = await this.uow.run(async (manager) => {
      const org = await manager.findOneBy(OrganizationEntity, { name: command.orgName });
      if (!org) throw new OrganizationNotFoundError(command.orgName);
      const user = await findOrCreateUser(manager, command.email);
      const existing = await manager.findOneBy(MembershipEntity, { orgId: org.id, userId: user.id });
      if (existing) throw new ConflictError(`${user.email} is already a member of '${org.name}' (role ${existing.role})`);
      await manager.insert(MembershipEntity, { orgId: org.id, userId: user.id, role: command.role, createdAt: new Date() });
      const issued = await this.keys.issue(manager, { userId: user.id }, `personal key for ${org.name}`);
      return { email: user.email, role: command.role, api_key: issued.key };
    });
    this.directory.evict(command.orgName);
    return added;
  }
}
