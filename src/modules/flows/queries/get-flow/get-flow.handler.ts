import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../../../common/config/app-config';
import { InjectConfig } from '../../../../common/config/config.decorators';
import { NotFoundError } from '../../../../common/errors/app-error';
import { FlowResponse, toFlowResponse } from '../../dto/flow.response';
import { FlowReader } from '../../persistence/flow.reader';
import { GetFlowQuery } from './get-flow.query';

@QueryHandler(GetFlowQuery)
export class GetFlowHandler implements IQueryHandler<GetFlowQuery> {
  constructor(
    private readonly flows: FlowReader,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(query: GetFlowQuery): Promise<FlowResponse> {
    const row = await this.flows.find(query.orgId, query.flowName);
    if (!row) throw new NotFoundError(`Flow '${query.flowName}' not found`);
    return toFlowResponse(row, query.orgName, this.config.publicBaseUrl);
  }
}
