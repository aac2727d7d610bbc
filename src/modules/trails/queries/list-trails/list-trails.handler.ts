import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../../../common/config/app-config';
import { InjectConfig } from '../../../../common/config/config.decorators';
import { NotFoundError } from '../../../../common/errors/app-error';
import { DEFAULT_PER_PAGE, PageEnvelope, pageEnvelope } from '../../../../common/pagination/page-envelope';
import { toTrailResponse, TrailResponse } from '../../dto/trail.response';
import { TrailListReader } from '../../persistence/trail-list.reader';
import { TrailStateReader } from '../../read-model/trail-state.reader';
import { ListTrailsQuery } from './list-trails.query';

@QueryHandler(ListTrailsQuery)
export class ListTrailsHandler implements IQueryHandler<ListTrailsQuery> {
  constructor(
    private readonly trails: TrailListReader,
    private readonly reader: TrailStateReader,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(query: ListTrailsQuery): Promise<PageEnvelope<TrailResponse>> {
    const { filters, page = 1, perPage = DEFAULT_PER_PAGE } = query.props;
    const tag = filters.flowTag?.match(/^([^=:]+)[=:](.*)$/);
    let flowId: string | undefined;
    if (filters.flow !== undefined) {
      const found = await this.trails.flowId(query.props.orgId, filters.flow);
      if (!found) {
        if (query.props.flowInPath) throw new NotFoundError(`Flow '${filters.flow}' not found`);
        return this.envelope(query, [], 0, page, perPage);
      }
      flowId = found;
    }
    const { rows, total } = await this.trails.page(
      query.props.orgId,
      { flowId, flowTag: tag ? { key: tag[1], value: tag[2] } : undefined, fingerprint: filters.fingerprint },
      page,
      perPage,
    );
    const states = rows.length ? await this.reader.currentStates(rows) : new Map();
    const data = rows.map((row) => toTrailResponse(row, states.get(row.id)!, query.props.orgName, this.config.publicBaseUrl));
    return this.envelope(query, data, total, page, perPage);
  }

  private envelope(query: ListTrailsQuery, data: TrailResponse[], total: number, page: number, perPage: number): PageEnvelope<TrailResponse> {
    const org = encodeURIComponent(query.props.orgName);
    const base = `${this.config.publicBaseUrl}/api/v2/trails/${org}`;
    const { filters } = query.props;
    if (query.props.flowInPath) {
      return pageEnvelope(data, total, page, perPage, `${base}/${encodeURIComponent(filters.flow!)}`);
    }
    return pageEnvelope(data, total, page, perPage, base, {
      flow: filters.flow,
      flow_tag: filters.flowTag,
      fingerprint: filters.fingerprint,
    });
  }
}
