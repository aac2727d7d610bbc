import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import { PageEnvelope } from '../../../../common/pagination/page-envelope';
import { EvaluationResponse } from '../../dto/evaluation.response';

export interface ListEvaluationsProps extends OrgScope {
  page?: number;
  perPage?: number;
  status?: string;
  control?: string;
}

/** Newest first, in the paginated envelope. */
export class ListEvaluationsQuery extends OrgQuery<ListEvaluationsProps, PageEnvelope<EvaluationResponse>> {}
