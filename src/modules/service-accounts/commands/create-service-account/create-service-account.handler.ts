import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { CredentialEvents } from '../../../identity/identity.module';
import { ServiceAccountResponse, toServiceAccountResponse } from '../../dto/service-account.response';
import { ServiceAccountRepository } from '../../persistence/service-account.repository';
import { CreateServiceAccountCommand } from './create-service-account.command';

@CommandHandler(CreateServiceAccountCommand)
export class CreateServiceAccountHandler implements ICommandHandler<CreateServiceAccountCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly accounts: ServiceAccountRepository,
    private readonly events: CredentialEvents,
  ) {}

  async execute(command: CreateServiceAccountCommand): Promise<ServiceAccountResponse> {
    const { orgId, orgName, name, description, role, actor } = command.props;
    const created = await this.uow.run(async (manager) => {
      const account = await this.accounts.insert(manager, { orgId, name, description, role, createdBy: actor });
      if (account) {
        const at = new Date(Number(account.created_at) * 1000);
        await this.events.record(manager, { orgId, orgName }, { type: 'service_account_created', service_account: name, privilege: account.role, description: account.description, actor }, at);
      }
      return account;
    });
    if (!created) throw new ConflictError(`Service account '${name}' already exists`);
    return toServiceAccountResponse(created);
  }
}
