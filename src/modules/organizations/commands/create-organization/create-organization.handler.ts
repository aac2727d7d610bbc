import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { ConflictError } from '../../../../common/errors/app-error';
import { sqlState } from '../../../../common/errors/database-errors';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { ApiKeyRepository } from '../../../identity/persistence/api-key.repository';
import { toOrganizationResponse } from '../../dto/organization.response';
import { MembershipEntity } from '../../persistence/membership.entity';
import { OrganizationDirectory } from '../../persistence/organization-directory';
import { OrganizationEntity } from '../../persistence/organization.entity';
import { findOrCreateUser } from '../../persistence/users';
import { CreatedOrganization, CreateOrganizationCommand } from './create-organization.command';

/** Operator bootstrap: the org, its first admin user and that user's personal key, in one transaction. */
@CommandHandler(CreateOrganizationCommand)
export class CreateOrganizationHandler implements ICommandHandler<CreateOrganizationCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly keys: ApiKeyRepository,
    private readonly directory: OrganizationDirectory,
  ) {}

  async execute(command: CreateOrganizationCommand): Promise<CreatedOrganization> {
    try {
      const created = await this.uow.run(async (manager) => {
        const org = manager.create(OrganizationEntity, {
          id: randomUUID(),
          name: command.name,
          region: command.region,
          features: [...new Set(command.features)],
          createdAt: new Date(),
        });
        await manager.insert(OrganizationEntity, org);
        const user = await findOrCreateUser(manager, command.adminEmail);
        await manager.insert(MembershipEntity, { orgId: org.id, userId: user.id, role: 'admin', createdAt: new Date() });
        const issued = await this.keys.issue(manager, { userId: user.id }, `personal key for ${org.name}`);
        return { ...toOrganizationResponse(org), admin: { email: user.email, api_key: issued.key } };
      });
      this.directory.evict(command.name);
      return created;
    } catch (error) {
      if (sqlState(error) === '23505') throw new ConflictError(`Organization '${command.name}' already exists`);
      throw error;
    }
  }
}
