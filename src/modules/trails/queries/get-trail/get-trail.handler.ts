import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../../../common/config/app-config';
import { InjectConfig } from '../../../../common/config/config.decorators';
import { toTrailResponse, TrailResponse } from '../../dto/trail.response';
import { TrailStateReader } from '../../read-model/trail-state.reader';
import { GetTrailQuery } from './get-trail.query';

@QueryHandler(GetTrailQuery)
export class GetTrailHandler implements IQueryHandler<GetTrailQuery> {
  constructor(
    private readonly reader: TrailStateReader,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(query: GetTrailQuery): Promise<TrailResponse> {
    // The state as of the trail's last committed moment, so the trail row and its slots agree.
    const { trail, moment, state } = await this.reader.readAt(query.props.orgId, query.props.flowName, query.props.trailName, { kind: 'back', steps: 0 });
    const upTo = moment?.momentNumber ?? 0;
    const [current, events] = await Promise.all([
      state ?? this.reader.stateOf(trail.id, trail.template_id, upTo),
      this.reader.events(trail.id, upTo),
    ]);
    return toTrailResponse(trail, current, query.props.orgName, this.config.publicBaseUrl, events);
  }
}
