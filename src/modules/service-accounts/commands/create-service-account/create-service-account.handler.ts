import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { ServiceAccountResponse, toServiceAccountResponse } from '../../dto/service-account.response';
import { ServiceAccountRepository } from '../../persistence/service-account.repository';
import { CreateServiceAccountCommand } from './create-service-account.command';

@CommandHandler(CreateServiceAccountCommand)
export class CreateServiceAccountHandler implements ICommandHandler<CreateServiceAccountCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly accounts: ServiceAccountRepository,
  ) {}

  async execute(command: CreateServiceAccountCommand): Promise<ServiceAccountResponse> {
    const { orgId, name, description, role, actor } = command.props;
    const created = await this.uow.run((manager) => this.accounts.insert(manager, { orgId, name, description, role, createdBy: actor }));
    if (!created) throw new ConflictError(`Service account '${name}' already exists`);
    return toServiceAccountResponse(created);
  }
}
