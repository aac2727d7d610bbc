import { OrgScope, OrgQuery } from '../../../../common/cqrs/org-scoped';
import { PageEnvelope } from '../../../../common/pagination/page-envelope';
import { TrailResponse } from '../../dto/trail.response';

export interface TrailFilters {
  flow?: string;
  flowTag?: { key: string; value: string };
  fingerprint?: string;
}

export interface ListTrailsProps extends OrgScope {
  filters: TrailFilters;
  /** true for `GET /trails/{org}/{flow}`: an unknown flow is 404 there. */
  flowInPath: boolean;
  page: number;
  perPage: number;
}

/** Trails newest first, in the `{data, _links, pagination}` envelope. */
export class ListTrailsQuery extends OrgQuery<ListTrailsProps, PageEnvelope<TrailResponse>> {}
