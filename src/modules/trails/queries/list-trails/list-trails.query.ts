import { OrgScope, OrgQuery } from '../../../../common/cqrs/org-scoped';
import { PageEnvelope } from '../../../../common/pagination/page-envelope';
import { TrailResponse } from '../../dto/trail.response';

export interface TrailFilters {
  flow?: string;
  /** `key=value` or `key:value` */
  flowTag?: string;
  fingerprint?: string;
}

export interface ListTrailsProps extends OrgScope {
  filters: TrailFilters;
  /** true for `GET /trails/{org}/{flow}`: an unknown flow is 404 there. */
  flowInPath: boolean;
  /** from 1; default 1 */
  page?: number;
  /** default 20 */
  perPage?: number;
}

/** Trails newest first, in the `{data, _links, pagination}` envelope. */
export class ListTrailsQuery extends OrgQuery<ListTrailsProps, PageEnvelope<TrailResponse>> {}
