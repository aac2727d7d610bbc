import { Query } from '@nestjs/cqrs';
import { TrailMomentResponse } from '../../dto/trail.response';

export class GetTrailMomentQuery extends Query<TrailMomentResponse> {
  constructor(
    readonly orgId: string,
    readonly flowName: string,
    readonly trailName: string,
    /** As received (already URL-decoded once by the router). */
    readonly expression: string,
  ) {
    super();
  }
}
