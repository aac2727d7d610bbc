import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import { EvaluationResponse } from '../../dto/evaluation.response';

export interface GetEvaluationProps extends OrgScope {
  id: string;
}

export class GetEvaluationQuery extends OrgQuery<GetEvaluationProps, EvaluationResponse> {}
