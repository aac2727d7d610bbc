import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import { RepoResponse } from '../../dto/repo.response';
import { RepoListFilter } from '../../persistence/repo.reader';

export interface ListReposProps extends OrgScope {
  filter: RepoListFilter;
  page?: number;
  perPage?: number;
}

/** The reference's repo list: `repos` with `page`, `per_page`, `total_pages`, `total_count` and `_links`. */
export interface RepoPage {
  repos: RepoResponse[];
  page: number;
  per_page: number;
  total_pages: number;
  total_count: number;
  _links: { self: string; first: string; last: string; next: string | null; prev: string | null };
}

export class ListReposQuery extends OrgQuery<ListReposProps, RepoPage> {}
