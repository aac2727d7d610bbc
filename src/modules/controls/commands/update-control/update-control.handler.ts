import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { EvidenceLog } from '../../../evidence-log/evidence-log.module';
import { ControlResponse, toControlResponse } from '../../dto/control.response';
import { ControlRepository } from '../../persistence/control.repository';
import { PolicyNamesOfControls } from '../../policy-names';
import { logControlVersion } from '../../control-version-log';
import { UpdateControlCommand } from './update-control.command';

@CommandHandler(UpdateControlCommand)
export class UpdateControlHandler implements ICommandHandler<UpdateControlCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly controls: ControlRepository,
    private readonly evidenceLog: EvidenceLog,
    private readonly policyNames: PolicyNamesOfControls,
  ) {}

  async execute(command: UpdateControlCommand): Promise<ControlResponse> {
    const { orgId, orgName, identifier, name, description, links, actor } = command.props;
    return this.uow.run(async (manager) => {
      const control = await this.controls.lock(manager, orgId, identifier);
      if (!control) throw new NotFoundError(`Control '${identifier}' not found`);
      // null is as if the field were not sent: the columns are NOT NULL and a null is no value to keep.
      const version = await this.controls.update(manager, orgId, control.id, { name: name ?? undefined, description: description ?? undefined, links: links ?? undefined });
      // A change is a new version, kept and logged; an edit that changes nothing is neither.
      if (version !== null) {
        await logControlVersion(this.evidenceLog, manager, { orgId, orgName }, await this.controls.recordVersion(manager, orgId, identifier, 'edited', actor));
      }
      return toControlResponse((await this.controls.find(orgId, identifier, manager))!, await this.policyNames.ofOne(orgId, identifier));
    });
  }
}
