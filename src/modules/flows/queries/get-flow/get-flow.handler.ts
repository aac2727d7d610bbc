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
    const row = await this.flows.find(query.props.orgId, query.props.flowName);
    if (!row) throw new NotFoundError(`Flow '${query.props.flowName}' not found`);
    return toFlowResponse(row, query.props.orgName, this.config.publicBaseUrl);
  }
}
