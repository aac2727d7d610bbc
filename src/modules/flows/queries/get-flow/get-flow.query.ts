import { OrgScope, OrgQuery } from '../../../../common/cqrs/org-scoped';
import { FlowResponse } from '../../dto/flow.response';

export interface GetFlowProps extends OrgScope {
  flowName: string;
}

export class GetFlowQuery extends OrgQuery<GetFlowProps, FlowResponse> {}
