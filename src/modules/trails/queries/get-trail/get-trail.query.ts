import { OrgScope, OrgQuery } from '../../../../common/cqrs/org-scoped';
import { TrailResponse } from '../../dto/trail.response';

export interface GetTrailProps extends OrgScope {
  flowName: string;
  trailName: string;
}

export class GetTrailQuery extends OrgQuery<GetTrailProps, TrailResponse> {}
