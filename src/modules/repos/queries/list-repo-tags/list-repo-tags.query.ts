import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';

export interface RepoTagChoices {
  tag_choices: Array<{ key: string; value: string }>;
  _links: { self: string };
}

/** The distinct tag key/value pairs over the org's repos (choices for a tag filter). */
export class ListRepoTagsQuery extends OrgQuery<OrgScope, RepoTagChoices> {}
