import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../common/clock/clock';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { ActionSubscriptions } from '../../action-subscriptions';
import { ActionNotFoundError } from '../../dto/action.response';
import { ActionRepository } from '../../persistence/action.repository';
import { DeleteActionCommand } from './delete-action.command';

@CommandHandler(DeleteActionCommand)
export class DeleteActionHandler implements ICommandHandler<DeleteActionCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly actions: ActionRepository,
    private readonly subscriptions: ActionSubscriptions,
    private readonly clock: Clock,
  ) {}

  async execute(command: DeleteActionCommand): Promise<string> {
    const { orgId, number, type } = command.props;
    await this.uow.run(async (manager) => {
      await this.actions.lockOrg(manager, orgId);
      if (!(await this.actions.softDelete(manager, orgId, number, type, new Date(this.clock.now())))) throw new ActionNotFoundError();
      await this.subscriptions.refresh(manager, orgId);
    });
    return `Action ${number} was deleted`;
  }
}
