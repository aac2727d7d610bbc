import { Module } from '@nestjs/common';
import { ArchiveFlowHandler } from './commands/archive-flow/archive-flow.handler';
import { RenameFlowHandler } from './commands/rename-flow/rename-flow.handler';
import { FlowRenameRedirect } from './flow-rename-redirect';
import { FlowRenameRepository } from './persistence/flow-rename.repository';
import { EvidenceLogModule } from '../evidence-log/evidence-log.module';
import { TagsModule, tagTargetProvider } from '../tags/tags.module';
import { CreateFlowHandler } from './commands/create-flow/create-flow.handler';
import { FlowDirectory } from './flow-directory';
import { FlowsController } from './flows.controller';
import { FlowReader } from './persistence/flow.reader';
import { FlowTemplateRepository } from './persistence/flow-template.repository';
import { FlowRepository } from './persistence/flow.repository';
import { GetFlowHandler } from './queries/get-flow/get-flow.handler';
import { ListFlowsHandler } from './queries/list-flows/list-flows.handler';

/**
 * Flows and their template versions. Owns the tables `flows`, `flow_templates` and `flow_renames`.
 * Archived flows refuse new evidence (a trigger); an old name redirects to the new one (FlowRenameRedirect).
 * Public surface: FlowDirectory (find, create, lock flows; save and read template versions; tags; what a rename
 * waits for), `flowNameAt`
 * (a typed fragment: a flow's name as of a time, for records that show it) and the template types and parser
 * re-exported below.
 */
@Module({
  imports: [TagsModule, EvidenceLogModule],
  controllers: [FlowsController],
  providers: [
    FlowRepository,
    FlowTemplateRepository,
    FlowReader,
    FlowDirectory,
    CreateFlowHandler,
    GetFlowHandler,
    ListFlowsHandler,
    FlowRenameRepository,
    ArchiveFlowHandler,
    RenameFlowHandler,
    FlowRenameRedirect,
    // Flows are tagged by name (`PATCH /tags/{org}/flow/{name}`).
    tagTargetProvider<FlowDirectory>('flow', FlowDirectory, (flows) => (manager, orgId, name, update) => flows.updateTags(manager, orgId, name, update)),
  ],
  exports: [FlowDirectory],
})
export class FlowsModule {}

export { FlowDirectory } from './flow-directory';
export type { RenameHold } from './flow-directory';
export { flowNameAt } from './persistence/flow-name-at';
export type { SaveTemplateVersion } from './flow-directory';
export type { FlowRef } from './persistence/flow.repository';
export type { StoredTemplate } from './persistence/flow-template.repository';
export { EMPTY_TEMPLATE, parseFlowTemplate } from './domain/flow-template';
export type { FlowTemplateSpec } from './domain/flow-template';
