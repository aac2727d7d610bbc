import { Module } from '@nestjs/common';
import { EvidenceLogModule } from '../evidence-log/evidence-log.module';
import { TagsModule, tagTargetProvider } from '../tags/tags.module';
import { CreateControlHandler } from './commands/create-control/create-control.handler';
import { SetControlArchivedHandler } from './commands/set-control-archived/set-control-archived.handler';
import { UpdateControlHandler } from './commands/update-control/update-control.handler';
import { ControlDirectory } from './control-directory';
import { ControlVersionLogRenderer } from './control-version-log-renderer';
import { ControlsController } from './controls.controller';
import { ControlRepository } from './persistence/control.repository';
import { PolicyNamesOfControls } from './policy-names';
import { GetControlHandler } from './queries/get-control/get-control.handler';
import { GetControlVersionHandler } from './queries/get-control-version/get-control-version.handler';
import { ListControlsHandler } from './queries/list-controls/list-controls.handler';

/**
 * Controls: the requirements decisions answer (beta `controls`). Owns `controls`,
 * `control_versions` (append-only: the control after each change, logged) and `control_policy_references`.
 * Public surface: ControlDirectory (a decision's control, checked in the writing transaction; policy references,
 * and the registration of the policies module's reader of named policies that reference a control). Its tag
 * target (`PATCH /tags/{org}/control/{identifier}`) is registered with the tags module.
 */
@Module({
  imports: [TagsModule, EvidenceLogModule],
  controllers: [ControlsController],
  providers: [
    ControlRepository,
    ControlDirectory,
    PolicyNamesOfControls,
    ControlVersionLogRenderer,
    tagTargetProvider<ControlDirectory>('control', ControlDirectory, (controls) => (manager, orgId, identifier, update) =>
      controls.updateTags(manager, orgId, identifier, update), { beta: 'controls' },
    ),
    CreateControlHandler,
    UpdateControlHandler,
    SetControlArchivedHandler,
    GetControlHandler,
    GetControlVersionHandler,
    ListControlsHandler,
  ],
  exports: [ControlDirectory],
})
export class ControlsModule {}

export { ControlDirectory } from './control-directory';
export type { PolicyNamesSource } from './policy-names';
