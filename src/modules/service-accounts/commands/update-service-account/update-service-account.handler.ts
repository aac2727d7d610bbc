import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { ApiKeyVerifier } from '../../../identity/identity.module';
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
  ) {}

  async execute(command: UpdateServiceAccountCommand): Promise<ServiceAccountResponse> {
    const { orgId, name, description, role } = command.props;
    const updated = await this.uow.run(async (manager) => {
      const account = await this.accounts.lock(manager, orgId, name);
      if (!account) throw new ServiceAccountNotFoundError(name);
      return this.accounts.update(manager, account, { description, role });
    });
    this.verifier.forget({ kind: 'service_account', id: updated.id });
    return toServiceAccountResponse(updated);
  }
}
