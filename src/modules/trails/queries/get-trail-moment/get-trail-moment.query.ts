import { OrgScope, OrgQuery } from '../../../../common/cqrs/org-scoped';
import { TrailMomentResponse } from '../../dto/trail.response';

export interface GetTrailMomentProps extends OrgScope {
  flowName: string;
  trailName: string;
  /** As received (already URL-decoded once by the router). */
  expression: string;
}

export class GetTrailMomentQuery extends OrgQuery<GetTrailMomentProps, TrailMomentResponse> {}
