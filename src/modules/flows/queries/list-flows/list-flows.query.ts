import { OrgScope, OrgQuery } from '../../../../common/cqrs/org-scoped';
import { PageEnvelope } from '../../../../common/pagination/page-envelope';
import { FlowResponse } from '../../dto/flow.response';

export interface ListFlowsProps extends OrgScope {
  page?: number;
  perPage?: number;
  searchByName?: string;
  caseSensitive: boolean;
  /** Only archived flows (hidden otherwise). */
  archived?: boolean;
}

/** Plain array without paging parameters; the envelope when `page` or `per_page` is given. */
export class ListFlowsQuery extends OrgQuery<ListFlowsProps, FlowResponse[] | PageEnvelope<FlowResponse>> {}
