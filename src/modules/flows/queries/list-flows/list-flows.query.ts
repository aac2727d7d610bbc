import { Query } from '@nestjs/cqrs';
import { PageEnvelope } from '../../../../common/pagination/page-envelope';
import { FlowResponse } from '../../dto/flow.response';

/** Plain array without paging parameters; the envelope when `page` or `per_page` is given. */
export class ListFlowsQuery extends Query<FlowResponse[] | PageEnvelope<FlowResponse>> {
  constructor(
    readonly orgId: string,
    readonly orgName: string,
    readonly page: number | undefined,
    readonly perPage: number | undefined,
    readonly searchByName: string | undefined,
    readonly caseSensitive: boolean,
  ) {
    super();
  }
}
