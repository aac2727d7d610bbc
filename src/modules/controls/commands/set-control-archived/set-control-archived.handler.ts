import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { ControlResponse, toControlResponse } from '../../dto/control.response';
import { ControlRepository } from '../../persistence/control.repository';
import { SetControlArchivedCommand } from './set-control-archived.command';

@CommandHandler(SetControlArchivedCommand)
export class SetControlArchivedHandler implements ICommandHandler<SetControlArchivedCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly controls: ControlRepository,
  ) {}

  async execute(command: SetControlArchivedCommand): Promise<ControlResponse> {
    const { orgId, identifier, archived } = command.props;
    return this.uow.run(async (manager) => {
      const control = await this.controls.lock(manager, orgId, identifier);
      if (!control) throw new NotFoundError(`Control '${identifier}' not found`);
      // No change, no new version: archiving twice answers with the archived record as it is.
      await this.controls.update(manager, orgId, control.id, { archived });
      return toControlResponse((await this.controls.find(orgId, identifier, manager))!);
    });
  }
}
