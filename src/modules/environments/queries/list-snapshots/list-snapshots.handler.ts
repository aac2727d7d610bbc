import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../../../common/config/app-config';
import { InjectConfig } from '../../../../common/config/config.decorators';
import { BadRequestError, NotFoundError, ValidationError } from '../../../../common/errors/app-error';
import { parseInterval, SnapshotExpressionError } from '../../domain/snapshot-expression';
import { SnapshotListItem, snapshotUrl } from '../../dto/snapshot.response';
import { EnvironmentReader } from '../../persistence/environment.reader';
import { SnapshotReader } from '../../persistence/snapshot.reader';
import { LOGICAL } from '../../types/environment-type';
import { ListSnapshotsQuery } from './list-snapshots.query';

/** Page size when none is given (the reference's default). */
export const DEFAULT_SNAPSHOTS_PER_PAGE = 15;

@QueryHandler(ListSnapshotsQuery)
export class ListSnapshotsHandler implements IQueryHandler<ListSnapshotsQuery> {
  constructor(
    private readonly environments: EnvironmentReader,
    private readonly snapshots: SnapshotReader,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(query: ListSnapshotsQuery): Promise<SnapshotListItem[]> {
    const { orgId, orgName, envName } = query.props;
    let interval;
    try {
      interval = parseInterval(query.props.interval ?? '1..NOW');
    } catch (error) {
      if (error instanceof SnapshotExpressionError) throw new ValidationError({ 'query.interval': error.message });
      throw error;
    }
    const env = await this.environments.find(orgId, envName);
    if (!env) throw new NotFoundError(`Environment '${envName}' not found`);
    if (env.type === LOGICAL) {
      throw new BadRequestError(`Environment '${envName}' is logical: it has no snapshots of its own (GET /snapshots/{org}/${envName}/latest shows its members')`);
    }
    const from = await this.snapshots.resolve(orgId, env.id, env.last_snapshot, interval.from);
    const to = await this.snapshots.resolve(orgId, env.id, env.last_snapshot, interval.to);
    if (from === null || to === null || from > to) return [];
    const perPage = query.props.perPage ?? DEFAULT_SNAPSHOTS_PER_PAGE;
    const page = query.props.page ?? 1;
    const rows = await this.snapshots.list(orgId, env.id, { from, to }, { offset: (page - 1) * perPage, limit: perPage }, query.props.oldestFirst);
    const now = Date.now() / 1000;
    return rows.map((row) => ({
      index: row.number,
      from: row.created_at,
      to: row.next_created_at ?? 0,
      duration: (row.next_created_at ?? now) - row.created_at,
      compliant: row.compliant,
      artifact_count: row.artifact_count,
      instance_count: row.instance_count,
      html_url: snapshotUrl(this.config.publicBaseUrl, orgName, env.name, row.number),
    }));
  }
}
