import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../common/clock/clock';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { ApiKeyVerifier, CredentialEvents } from '../../../identity/identity.module';
import { ServiceAccountResponse, toServiceAccountResponse } from '../../dto/service-account.response';
import { ServiceAccountNotFoundError } from '../../service-account.errors';
import { ServiceAccountRepository } from '../../persistence/service-account.repository';
import { UpdateServiceAccountCommand } from './update-service-account.command';

@CommandHandler(UpdateServiceAccountCommand)
export class UpdateServiceAccountHandler implements ICommandHandler<UpdateServiceAccountCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly accounts: ServiceAccountRepository,
    private readonly verifier: ApiKeyVerifier,
    private readonly events: CredentialEvents,
    private readonly clock: Clock,
  ) {}

  async execute(command: UpdateServiceAccountCommand): Promise<ServiceAccountResponse> {
    const { orgId, orgName, name, description, role, actor } = command.props;
    const updated = await this.uow.run(async (manager) => {
      const account = await this.accounts.lock(manager, orgId, name);
      if (!account) throw new ServiceAccountNotFoundError(name);
      const updated = await this.accounts.update(manager, account, { description, role });
      // A change of privilege or description is a credential event (logged); the same values again are none.
      if (updated.role !== account.role || updated.description !== account.description) {
        const change = { type: 'service_account_changed' as const, service_account: name, privilege: updated.role, description: updated.description, actor };
        await this.events.record(manager, { orgId, orgName }, change, new Date(this.clock.now()));
      }
      return updated;
    });
    this.verifier.forget({ kind: 'service_account', id: updated.id });
    return toServiceAccountResponse(updated);
  }
}
