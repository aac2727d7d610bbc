import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { CustomTypeResponse, toCustomTypeResponse } from '../../dto/custom-type.response';
import { CustomTypeRepository } from '../../persistence/custom-type.repository';
import { ArchiveCustomTypeCommand } from './archive-custom-type.command';

@CommandHandler(ArchiveCustomTypeCommand)
export class ArchiveCustomTypeHandler implements ICommandHandler<ArchiveCustomTypeCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly types: CustomTypeRepository,
  ) {}

  execute(command: ArchiveCustomTypeCommand): Promise<CustomTypeResponse> {
    const { orgId, orgName, name } = command.props;
    return this.uow.run(async (manager) => {
      if (!(await this.types.archive(manager, orgId, name))) throw new NotFoundError(`Custom attestation type '${name}' not found`);
      return toCustomTypeResponse((await this.types.find(orgId, name, manager))!, orgName);
    });
  }
}
