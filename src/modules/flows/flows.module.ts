import { Global, Module } from '@nestjs/common';
import { CreateFlowHandler } from './commands/create-flow/create-flow.handler';
import { FlowsController } from './flows.controller';
import { FlowTemplates } from './persistence/flow-templates';
import { GetFlowHandler } from './queries/get-flow/get-flow.handler';
import { ListFlowsHandler } from './queries/list-flows/list-flows.handler';

/** Flows and their template versions. */
@Global()
@Module({
  controllers: [FlowsController],
  providers: [FlowTemplates, CreateFlowHandler, GetFlowHandler, ListFlowsHandler],
  exports: [FlowTemplates],
})
export class FlowsModule {}
