import { Query } from '@nestjs/cqrs';
import { FlowResponse } from '../../dto/flow.response';

export class GetFlowQuery extends Query<FlowResponse> {
  constructor(
    readonly orgId: string,
    readonly orgName: string,
    readonly flowName: string,
  ) {
    super();
  }
}
