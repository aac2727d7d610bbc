import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import { EnvironmentResponse } from '../../dto/environment.response';
import { EnvironmentListFilter } from '../../persistence/environment.reader';

export interface ListEnvironmentsProps extends OrgScope {
  filter: EnvironmentListFilter;
  page?: number;
  perPage?: number;
}

/** The paged shape `kosli list environments --page ...` reads. */
export interface EnvironmentPage {
  environments: EnvironmentResponse[];
  page: number;
  per_page: number;
  total_pages: number;
  total_count: number;
  _links: { self: string; first: string; last: string; next: string | null; prev: string | null };
}

/** A plain array without paging parameters; the paged object when `page` or `per_page` is given. */
export class ListEnvironmentsQuery extends OrgQuery<ListEnvironmentsProps, EnvironmentResponse[] | EnvironmentPage> {}
