import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError, ValidationError } from '../../../../common/errors/app-error';
import { MomentExpressionError, MomentSelector, parseMomentExpression } from '../../../../common/moments/moment-expression';
import { toMomentResponse, TrailMomentResponse } from '../../dto/trail.response';
import { MomentCache } from './moment-cache';
import { TrailStateReader } from '../../read-model/trail-state.reader';
import { GetTrailMomentQuery } from './get-trail-moment.query';

/**
 * 400 malformed expression -> 404 flow/trail/moment -> 409 duplicate slot keys. The expression is resolved
 * to a moment number every time (cheap); the moment's content is immutable, so it is served from MomentCache
 * when this process has built it before.
 */
@QueryHandler(GetTrailMomentQuery)
export class GetTrailMomentHandler implements IQueryHandler<GetTrailMomentQuery> {
  constructor(
    private readonly reader: TrailStateReader,
    private readonly cache: MomentCache,
  ) {}

  async execute(query: GetTrailMomentQuery): Promise<TrailMomentResponse> {
    let selector: MomentSelector;
    try {
      selector = parseMomentExpression(query.props.expression);
    } catch (error) {
      if (error instanceof MomentExpressionError) throw new ValidationError({ moment_expression: error.message });
      throw error;
    }
    const { trail, moment } = await this.reader.readAt(query.props.orgId, query.props.flowName, query.props.trailName, selector, false);
    if (!moment) {
      throw new NotFoundError(`Moment '${query.props.expression}' not found in trail '${query.props.trailName}' of flow '${query.props.flowName}'`);
    }
    const cached = this.cache.get(trail.id, moment.momentNumber);
    if (cached) return cached;
    // Build it in one statement, addressed by number: the expression may point elsewhere by now (`latest`).
    const full = await this.reader.readAt(query.props.orgId, query.props.flowName, query.props.trailName, {
      kind: 'number',
      number: moment.momentNumber,
    });
    const response = toMomentResponse(full.moment!, full.state!);
    // Weighed by its serialized size (once per miss): user_data can make one slot large.
    this.cache.set(trail.id, moment.momentNumber, response, 2 * JSON.stringify(response).length);
    return response;
  }
}
