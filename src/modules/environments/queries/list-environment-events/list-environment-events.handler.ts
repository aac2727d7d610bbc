import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../../../common/config/app-config';
import { InjectConfig } from '../../../../common/config/config.decorators';
import { Clock } from '../../../../common/clock/clock';
import { BadRequestError, NotFoundError, ValidationError } from '../../../../common/errors/app-error';
import { EventBound, EventBoundError, parseEventBound } from '../../domain/event-bound';
import { parseInterval, SnapshotExpressionError } from '../../domain/snapshot-expression';
import { EnvironmentEventPage, toEnvironmentEventResponse } from '../../dto/environment-event.response';
import { EnvironmentEventReader, EventBounds } from '../../persistence/environment-event.reader';
import { EnvironmentReader } from '../../persistence/environment.reader';
import { SnapshotReader } from '../../persistence/snapshot.reader';
import { LOGICAL } from '../../types/environment-type';
import { ListEnvironmentEventsQuery } from './list-environment-events.query';

/** The reference's page size when none is given. */
export const DEFAULT_EVENTS_PER_PAGE = 15;

/**
 * A page of an environment's event log, newest first (`reverse=true`: oldest first). `interval`, `start`/`end`
 * and `start_ts`/`end_ts` narrow it, together (every bound given applies). A page is a `seq` range, except with
 * `repo_name`, which filters within the range and pages by offset.
 */
@QueryHandler(ListEnvironmentEventsQuery)
export class ListEnvironmentEventsHandler implements IQueryHandler<ListEnvironmentEventsQuery> {
  constructor(
    private readonly environments: EnvironmentReader,
    private readonly snapshots: SnapshotReader,
    private readonly events: EnvironmentEventReader,
    private readonly clock: Clock,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async execute(query: ListEnvironmentEventsQuery): Promise<EnvironmentEventPage> {
    const p = query.props;
    const parsed = this.parse(p.interval, p.start, p.end);
    const env = await this.environments.find(p.orgId, p.envName);
    if (!env) throw new NotFoundError(`Environment '${p.envName}' not found`);
    if (env.type === LOGICAL) throw new BadRequestError(`Environment '${p.envName}' is logical: its events are its members'`);
    const page = p.page ?? 1;
    const perPage = p.perPage ?? DEFAULT_EVENTS_PER_PAGE;
    const bounds: EventBounds = { fromTime: p.startTs, toTime: p.endTs };
    const empty = { events: [], page, perPage, total: 0 };
    if (parsed.interval) {
      const from = await this.snapshots.resolve(p.orgId, env.id, env.last_snapshot, parsed.interval.from);
      const to = await this.snapshots.resolve(p.orgId, env.id, env.last_snapshot, parsed.interval.to);
      if (from === null || to === null) return empty;
      narrow(bounds, 'fromSnapshot', from, Math.max);
      narrow(bounds, 'toSnapshot', to, Math.min);
    }
    for (const [side, bound] of [['from', parsed.start], ['to', parsed.end]] as const) {
      if (!bound) continue;
      if (bound.kind === 'time') {
        narrow(bounds, side === 'from' ? 'fromTime' : 'toTime', bound.seconds, side === 'from' ? Math.max : Math.min);
        continue;
      }
      const number = bound.kind === 'snapshot' ? bound.number : env.last_snapshot - bound.steps;
      if (number < 1) return empty;
      narrow(bounds, side === 'from' ? 'fromSnapshot' : 'toSnapshot', number, side === 'from' ? Math.max : Math.min);
    }
    const range = await this.events.seqRange(p.orgId, env.id, bounds);
    if (range.lo > range.hi) return empty;
    const present = (rows: Parameters<typeof toEnvironmentEventResponse>[0][]) =>
      rows.map((r) => toEnvironmentEventResponse(r, env.name, p.orgName, this.config.publicBaseUrl));
    const repos = p.repoNames.filter((r) => r !== '');
    if (repos.length) {
      const { rows, total } = await this.events.pageByRepos(p.orgId, env.id, range, repos, { offset: (page - 1) * perPage, limit: perPage }, p.oldestFirst);
      return { events: present(rows), page, perPage, total };
    }
    const total = range.hi - range.lo + 1;
    const skip = (page - 1) * perPage;
    if (skip >= total) return { ...empty, total };
    const [lo, hi] = p.oldestFirst ? [range.lo + skip, Math.min(range.hi, range.lo + skip + perPage - 1)] : [Math.max(range.lo, range.hi - skip - perPage + 1), range.hi - skip];
    return { events: present(await this.events.range(p.orgId, env.id, lo, hi, p.oldestFirst)), page, perPage, total };
  }

  private parse(interval: string | undefined, start: string | undefined, end: string | undefined) {
    const errors: Record<string, string> = {};
    const out: { interval?: ReturnType<typeof parseInterval>; start?: EventBound; end?: EventBound } = {};
    if (interval) {
      try {
        out.interval = parseInterval(interval);
      } catch (error) {
        if (!(error instanceof SnapshotExpressionError)) throw error;
        errors['query.interval'] = error.message;
      }
    }
    const now = this.clock.now() / 1000;
    for (const [key, raw] of [['start', start], ['end', end]] as const) {
      if (!raw) continue;
      try {
        out[key] = parseEventBound(raw, now);
      } catch (error) {
        if (!(error instanceof EventBoundError)) throw error;
        errors[`query.${key}`] = error.message;
      }
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    return out;
  }
}

function narrow<K extends keyof EventBounds>(bounds: EventBounds, key: K, value: number, pick: (a: number, b: number) => number): void {
  bounds[key] = bounds[key] === undefined ? value : pick(bounds[key]!, value);
}
