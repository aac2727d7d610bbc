import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../../common/config/app-config';
import { InjectConfig } from '../../../../common/config/config.decorators';
import { NotFoundError } from '../../../../common/errors/app-error';
import { PageEnvelope, pageEnvelope } from '../../../../common/pagination/page-envelope';
import { toTrailResponse, TrailResponse } from '../../dto/trail.response';
import { TRAIL_COLUMNS, TrailRecord, TrailStateReader } from '../../persistence/trail-state.reader';
import { ListTrailsQuery } from './list-trails.query';

@QueryHandler(ListTrailsQuery)
export class ListTrailsHandler implements IQueryHandler<ListTrailsQuery> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly reader: TrailStateReader,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(query: ListTrailsQuery): Promise<PageEnvelope<TrailResponse>> {
    const { filters } = query;
    const params: unknown[] = [query.orgId];
    const where = ['t.org_id = $1'];
    if (filters.flow !== undefined) {
      const flows: Array<{ id: string }> = await this.dataSource.query(`SELECT id FROM flows WHERE org_id = $1 AND name = $2`, [
        query.orgId,
        filters.flow,
      ]);
      if (!flows.length) {
        if (query.flowInPath) throw new NotFoundError(`Flow '${filters.flow}' not found`);
        return this.envelope(query, [], 0);
      }
      params.push(flows[0].id);
      where.push(`t.flow_id = $${params.length}`);
    }
    if (filters.flowTag) {
      params.push(JSON.stringify({ [filters.flowTag.key]: filters.flowTag.value }));
      where.push(`f.tags @> $${params.length}::jsonb`);
    }
    if (filters.fingerprint) {
      params.push(filters.fingerprint);
      where.push(`t.id IN (SELECT trail_id FROM artifacts WHERE org_id = $1 AND fingerprint = $${params.length})`);
    }
    const from = `FROM trails t JOIN flows f ON f.id = t.flow_id WHERE ${where.join(' AND ')}`;
    const [{ total }]: Array<{ total: number }> = await this.dataSource.query(`SELECT count(*)::int AS total ${from}`, params);
    const rows: TrailRecord[] = await this.dataSource.query(
      `SELECT ${TRAIL_COLUMNS} ${from} ORDER BY t.created_at DESC, t.id
       LIMIT ${query.perPage} OFFSET ${(query.page - 1) * query.perPage}`,
      params,
    );
    const states = rows.length ? await this.reader.currentStates(rows) : new Map();
    const data = rows.map((row) => toTrailResponse(row, states.get(row.id)!, query.orgName, this.config.publicBaseUrl));
    return this.envelope(query, data, total);
  }

  private envelope(query: ListTrailsQuery, data: TrailResponse[], total: number): PageEnvelope<TrailResponse> {
    const org = encodeURIComponent(query.orgName);
    const base = `${this.config.publicBaseUrl}/api/v2/trails/${org}`;
    const { filters } = query;
    if (query.flowInPath) {
      return pageEnvelope(data, total, query.page, query.perPage, `${base}/${encodeURIComponent(filters.flow!)}`);
    }
    return pageEnvelope(data, total, query.page, query.perPage, base, {
      flow: filters.flow,
      flow_tag: filters.flowTag ? `${filters.flowTag.key}=${filters.flowTag.value}` : undefined,
      fingerprint: filters.fingerprint,
    });
  }
}
