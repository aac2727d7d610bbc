import { Query } from '@nestjs/cqrs';
import { TrailResponse } from '../../dto/trail.response';

export class GetTrailQuery extends Query<TrailResponse> {
  constructor(
    readonly orgId: string,
    readonly orgName: string,
    readonly flowName: string,
    readonly trailName: string,
  ) {
    super();
  }
}
