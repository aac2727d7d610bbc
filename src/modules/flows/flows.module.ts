import { Module } from '@nestjs/common';
import { CreateFlowHandler } from './commands/create-flow/create-flow.handler';
import { FlowDirectory } from './flow-directory';
import { FlowsController } from './flows.controller';
import { FlowReader } from './persistence/flow.reader';
import { FlowTemplateRepository } from './persistence/flow-template.repository';
import { FlowRepository } from './persistence/flow.repository';
import { GetFlowHandler } from './queries/get-flow/get-flow.handler';
import { ListFlowsHandler } from './queries/list-flows/list-flows.handler';

/**
 * Flows and their template versions. Owns the tables `flows` and `flow_templates`.
 * Public surface: FlowDirectory (find, create, lock flows; save and read template versions) and the template
 * types and parser re-exported below.
 */
@Module({
  controllers: [FlowsController],
  providers: [FlowRepository, FlowTemplateRepository, FlowReader, FlowDirectory, CreateFlowHandler, GetFlowHandler, ListFlowsHandler],
  exports: [FlowDirectory],
})
export class FlowsModule {}

export { FlowDirectory } from './flow-directory';
export type { SaveTemplateVersion } from './flow-directory';
export type { FlowRef } from './persistence/flow.repository';
export type { StoredTemplate } from './persistence/flow-template.repository';
export { EMPTY_TEMPLATE, parseFlowTemplate } from './domain/flow-template';
export type { FlowTemplateSpec } from './domain/flow-template';
