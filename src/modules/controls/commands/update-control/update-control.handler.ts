import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { ControlResponse, toControlResponse } from '../../dto/control.response';
import { ControlRepository } from '../../persistence/control.repository';
import { UpdateControlCommand } from './update-control.command';

@CommandHandler(UpdateControlCommand)
export class UpdateControlHandler implements ICommandHandler<UpdateControlCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly controls: ControlRepository,
  ) {}

  async execute(command: UpdateControlCommand): Promise<ControlResponse> {
    const { orgId, identifier, name, description, links } = command.props;
    return this.uow.run(async (manager) => {
      const control = await this.controls.lock(manager, orgId, identifier);
      if (!control) throw new NotFoundError(`Control '${identifier}' not found`);
      await this.controls.update(manager, orgId, control.id, { name, description, links });
      return toControlResponse((await this.controls.find(orgId, identifier, manager))!);
    });
  }
}
