import { Query } from '@nestjs/cqrs';
import { PageEnvelope } from '../../../../common/pagination/page-envelope';
import { TrailResponse } from '../../dto/trail.response';

export interface TrailFilters {
  flow?: string;
  flowTag?: { key: string; value: string };
  fingerprint?: string;
}

/** Trails newest first, in the `{data, _links, pagination}` envelope. */
export class ListTrailsQuery extends Query<PageEnvelope<TrailResponse>> {
  constructor(
    readonly orgId: string,
    readonly orgName: string,
    readonly filters: TrailFilters,
    /** true for `GET /trails/{org}/{flow}`: an unknown flow is 404 there. */
    readonly flowInPath: boolean,
    readonly page: number,
    readonly perPage: number,
  ) {
    super();
  }
}
