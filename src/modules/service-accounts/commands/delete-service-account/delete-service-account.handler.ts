import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../common/clock/clock';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { ApiKeyVerifier, CredentialEvents } from '../../../identity/identity.module';
import { ServiceAccountNotFoundError } from '../../service-account.errors';
import { ServiceAccountRepository } from '../../persistence/service-account.repository';
import { DeleteServiceAccountCommand } from './delete-service-account.command';

@CommandHandler(DeleteServiceAccountCommand)
export class DeleteServiceAccountHandler implements ICommandHandler<DeleteServiceAccountCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly accounts: ServiceAccountRepository,
    private readonly verifier: ApiKeyVerifier,
    private readonly events: CredentialEvents,
    private readonly clock: Clock,
  ) {}

  async execute(command: DeleteServiceAccountCommand): Promise<string> {
    const { orgId, orgName, name, actor } = command.props;
    const id = await this.uow.run(async (manager) => {
      const account = await this.accounts.lock(manager, orgId, name);
      if (!account) throw new ServiceAccountNotFoundError(name);
      await this.accounts.delete(manager, account.id);
      await this.events.record(manager, { orgId, orgName }, { type: 'service_account_deleted', service_account: name, actor }, new Date(this.clock.now()));
      return account.id;
    });
    this.verifier.forget({ kind: 'service_account', id });
    return `Service account '${name}' was deleted`;
  }
}
