import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import { SearchResponse } from '../../dto/search.response';

export interface SearchShaProps extends OrgScope {
  /** 5 to 64 hex characters, any case. */
  value: string;
}

export class SearchShaQuery extends OrgQuery<SearchShaProps, SearchResponse> {}
