import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../../../common/config/app-config';
import { InjectConfig } from '../../../../common/config/config.decorators';
import { ConflictError } from '../../../../common/errors/app-error';
import { sqlState } from '../../../../common/errors/database-errors';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { OPERATOR, UserAccounts } from '../../../identity/identity.module';
import { toOrganizationResponse } from '../../dto/organization.response';
import { MembershipRepository } from '../../persistence/membership.repository';
import { OrganizationReader } from '../../persistence/organization.reader';
import { OrganizationRepository } from '../../persistence/organization.repository';
import { CreatedOrganization, CreateOrganizationCommand } from './create-organization.command';

/** Operator bootstrap: the org, its first admin user and that user's personal key, in one transaction. */
@CommandHandler(CreateOrganizationCommand)
export class CreateOrganizationHandler implements ICommandHandler<CreateOrganizationCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserAccounts,
    private readonly orgs: OrganizationRepository,
    private readonly memberships: MembershipRepository,
    private readonly directory: OrganizationReader,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(command: CreateOrganizationCommand): Promise<CreatedOrganization> {
    try {
      const created = await this.uow.run(async (manager) => {
        const org = await this.orgs.insert(manager, { name: command.props.name, region: command.props.region ?? this.config.region, features: command.props.features });
        const user = await this.users.findOrCreateUser(manager, command.props.adminEmail);
        await this.memberships.insert(manager, org.id, user.id, 'admin');
        // An admin who already has personal keys (from other orgs): they act here too, so they are recorded first.
        await this.users.admitKeys(manager, user, { orgId: org.id, orgName: org.name }, OPERATOR);
        const apiKey = await this.users.issuePersonalKey(manager, user, { orgId: org.id, orgName: org.name }, OPERATOR);
        return { ...toOrganizationResponse(org), admin: { email: user.email, api_key: apiKey } };
      });
      this.directory.evict(command.props.name);
      return created;
    } catch (error) {
      if (sqlState(error) === '23505') throw new ConflictError(`Organization '${command.props.name}' already exists`);
      throw error;
    }
  }
}
