import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../../../common/errors/app-error';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { EvidenceLog } from '../../../evidence-log/evidence-log.module';
import { ControlResponse, toControlResponse } from '../../dto/control.response';
import { ControlRepository } from '../../persistence/control.repository';
import { PolicyNamesOfControls } from '../../policy-names';
import { logControlVersion } from '../../control-version-log';
import { SetControlArchivedCommand } from './set-control-archived.command';

@CommandHandler(SetControlArchivedCommand)
export class SetControlArchivedHandler implements ICommandHandler<SetControlArchivedCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly controls: ControlRepository,
    private readonly evidenceLog: EvidenceLog,
    private readonly policyNames: PolicyNamesOfControls,
  ) {}

  async execute(command: SetControlArchivedCommand): Promise<ControlResponse> {
    const { orgId, orgName, identifier, archived, actor } = command.props;
    return this.uow.run(async (manager) => {
      const control = await this.controls.lock(manager, orgId, identifier);
      if (!control) throw new NotFoundError(`Control '${identifier}' not found`);
      // No change, no new version: archiving twice answers with the archived record as it is.
      const version = await this.controls.update(manager, orgId, control.id, { archived });
      if (version !== null) {
        const change = archived ? 'archived' : 'unarchived';
        await logControlVersion(this.evidenceLog, manager, { orgId, orgName }, await this.controls.recordVersion(manager, orgId, identifier, change, actor));
      }
      return toControlResponse((await this.controls.find(orgId, identifier, manager))!, await this.policyNames.ofOne(orgId, identifier));
    });
  }
}
