import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import { ArtifactResponse } from '../../dto/artifact.response';

export interface ListArtifactsProps extends OrgScope {
  flowName?: string;
  repoName?: string;
  page?: number;
  perPage?: number;
}

/** Newest first, a plain array (the reference's); paging by `page` and `per_page` (default 15). */
export class ListArtifactsQuery extends OrgQuery<ListArtifactsProps, ArtifactResponse[]> {}
