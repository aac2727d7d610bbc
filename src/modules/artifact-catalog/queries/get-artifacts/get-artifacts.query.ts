import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import { ArtifactResponse } from '../../dto/artifact.response';

export interface GetArtifactsProps extends OrgScope {
  flowName: string;
  by: { fingerprint: string } | { commit: string };
  trailName?: string;
}

/**
 * A flow's artifact by fingerprint (the latest report of it: one object), or every artifact built from a commit
 * (an array), as the reference answers them.
 */
export class GetArtifactsQuery extends OrgQuery<GetArtifactsProps, ArtifactResponse | ArtifactResponse[]> {}
