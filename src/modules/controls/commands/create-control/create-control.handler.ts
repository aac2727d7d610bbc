import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { EvidenceLog } from '../../../evidence-log/evidence-log.module';
import { ControlResponse, toControlResponse } from '../../dto/control.response';
import { ControlRepository } from '../../persistence/control.repository';
import { PolicyNamesOfControls } from '../../policy-names';
import { logControlVersion } from '../../control-version-log';
import { CreateControlCommand } from './create-control.command';

@CommandHandler(CreateControlCommand)
export class CreateControlHandler implements ICommandHandler<CreateControlCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly controls: ControlRepository,
    private readonly evidenceLog: EvidenceLog,
    private readonly policyNames: PolicyNamesOfControls,
  ) {}

  async execute(command: CreateControlCommand): Promise<ControlResponse> {
    const { orgId, orgName, identifier, name, description, links, actor } = command.props;
    return this.uow.run(async (manager) => {
      const created = await this.controls.insert(manager, orgId, {
        identifier,
        name,
        description: description ?? '',
        links: links ?? {},
        createdBy: actor,
      });
      if (!created) throw new ConflictError(`Control '${identifier}' already exists`);
      await logControlVersion(this.evidenceLog, manager, { orgId, orgName }, await this.controls.recordVersion(manager, orgId, identifier, 'created', actor));
      return toControlResponse((await this.controls.find(orgId, identifier, manager))!, await this.policyNames.ofOne(orgId, identifier));
    });
  }
}
