import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { ControlResponse, toControlResponse } from '../../dto/control.response';
import { ControlRepository } from '../../persistence/control.repository';
import { CreateControlCommand } from './create-control.command';

@CommandHandler(CreateControlCommand)
export class CreateControlHandler implements ICommandHandler<CreateControlCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly controls: ControlRepository,
  ) {}

  async execute(command: CreateControlCommand): Promise<ControlResponse> {
    const { orgId, identifier, name, description, links, actor } = command.props;
    return this.uow.run(async (manager) => {
      const created = await this.controls.insert(manager, orgId, {
        identifier,
        name,
        description: description ?? '',
        links: links ?? {},
        createdBy: actor,
      });
      if (!created) throw new ConflictError(`Control '${identifier}' already exists`);
      return toControlResponse((await this.controls.find(orgId, identifier, manager))!);
    });
  }
}
