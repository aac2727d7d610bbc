import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** One entry of the log. Times are Unix seconds. */
export interface EventRow {
  seq: number;
  snapshot: number;
  created_at: number;
  type: string;
  artifact_name: string;
  fingerprint: string;
  description: string;
  flows: string[];
  repo_names: string[];
  artifact_compliance: boolean | null;
  snapshot_compliance: boolean;
}

/** Bounds of a slice of the log, each optional: snapshot numbers and Unix-second instants, all inclusive. */
export interface EventBounds {
  fromSnapshot?: number;
  toSnapshot?: number;
  fromTime?: number;
  toTime?: number;
}

/** What the audit log keeps: event types, flows (`no provenance` for artifacts no flow reported), repos. */
export interface AuditFilter {
  types?: string[];
  flows?: string[];
  noProvenance?: boolean;
  repos?: string[];
}

/** `seq` is shown as a number; ORDER BY names the table's column (`environment_events.seq`), never this alias, or the index order is lost. */
const COLUMNS = `seq::float8 AS seq, snapshot, EXTRACT(EPOCH FROM created_at)::float8 AS created_at, type, artifact_name, fingerprint,
  description, flows, repo_names, artifact_compliance, snapshot_compliance`;

/**
 * Read model of `environment_events`. `seq`, `snapshot` and `created_at` grow together within an environment,
 * so bounds of either kind become one `seq` range (a probe of an index each) and a page is a range of `seq`.
 */
@Injectable()
export class EnvironmentEventReader {
  constructor(private readonly dataSource: DataSource) {}

  /** The `seq` range [lo, hi] within the bounds (lo > hi when nothing is). */
  async seqRange(orgId: string, environmentId: string, b: EventBounds): Promise<{ lo: number; hi: number }> {
    const probe = (where: string, dir: 'ASC' | 'DESC', index: string) =>
      `(SELECT seq FROM environment_events WHERE org_id = $1 AND environment_id = $2 ${where} ORDER BY ${index} ${dir}, seq ${dir} LIMIT 1)`;
    const rows: Array<{ lo: string | null; hi: string | null; lo_s: string | null; hi_s: string | null; lo_t: string | null; hi_t: string | null }> =
      await this.dataSource.query(
        `SELECT ${probe('', 'ASC', 'seq')}::text AS lo, ${probe('', 'DESC', 'seq')}::text AS hi,
           CASE WHEN $3::int IS NULL THEN NULL ELSE ${probe('AND snapshot >= $3', 'ASC', 'snapshot')} END::text AS lo_s,
           CASE WHEN $4::int IS NULL THEN NULL ELSE ${probe('AND snapshot <= $4', 'DESC', 'snapshot')} END::text AS hi_s,
           CASE WHEN $5::float8 IS NULL THEN NULL ELSE ${probe('AND created_at >= to_timestamp($5)', 'ASC', 'created_at')} END::text AS lo_t,
           CASE WHEN $6::float8 IS NULL THEN NULL ELSE ${probe('AND created_at <= to_timestamp($6)', 'DESC', 'created_at')} END::text AS hi_t`,
        [orgId, environmentId, b.fromSnapshot ?? null, b.toSnapshot ?? null, b.fromTime ?? null, b.toTime ?? null],
      );
    const r = rows[0];
    if (r.lo === null || r.hi === null) return { lo: 1, hi: 0 };
    const none = { lo: 1, hi: 0 };
    if ((b.fromSnapshot !== undefined && r.lo_s === null) || (b.fromTime !== undefined && r.lo_t === null)) return none;
    if ((b.toSnapshot !== undefined && r.hi_s === null) || (b.toTime !== undefined && r.hi_t === null)) return none;
    const lo = Math.max(Number(r.lo), Number(r.lo_s ?? 0), Number(r.lo_t ?? 0));
    const hi = Math.min(Number(r.hi), Number(r.hi_s ?? Infinity), Number(r.hi_t ?? Infinity));
    return { lo, hi };
  }

  /** Entries with `seq` in [lo, hi], newest first unless `oldestFirst`. */
  async range(orgId: string, environmentId: string, lo: number, hi: number, oldestFirst: boolean): Promise<EventRow[]> {
    const rows: EventRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM environment_events WHERE org_id = $1 AND environment_id = $2 AND seq BETWEEN $3 AND $4
       ORDER BY environment_events.seq ${oldestFirst ? 'ASC' : 'DESC'}`,
      [orgId, environmentId, lo, hi],
    );
    return rows;
  }

  /** One page of the entries in [lo, hi] whose repos include one of `repos`, with their number. */
  async pageByRepos(
    orgId: string,
    environmentId: string,
    range: { lo: number; hi: number },
    repos: string[],
    page: { offset: number; limit: number },
    oldestFirst: boolean,
  ): Promise<{ rows: EventRow[]; total: number }> {
    const where = `org_id = $1 AND environment_id = $2 AND seq BETWEEN $3 AND $4 AND repo_names && $5::text[]`;
    const params = [orgId, environmentId, range.lo, range.hi, repos];
    const [count, rows] = await Promise.all([
      this.dataSource.query(`SELECT count(*)::int AS n FROM environment_events WHERE ${where}`, params) as Promise<Array<{ n: number }>>,
      this.dataSource.query(
        `SELECT ${COLUMNS} FROM environment_events WHERE ${where} ORDER BY environment_events.seq ${oldestFirst ? 'ASC' : 'DESC'} LIMIT ${page.limit} OFFSET ${page.offset}`,
        params,
      ) as Promise<EventRow[]>,
    ]);
    return { rows, total: count[0].n };
  }

  /**
   * Up to `limit` entries after `afterSeq` and at most `maxSeq`, oldest first, that pass the filter. Only the
   * filters given are in the statement, so its plan is always the primary key's range scan.
   */
  async auditBatch(orgId: string, environmentId: string, afterSeq: number, maxSeq: number, f: AuditFilter & EventBounds, limit: number): Promise<EventRow[]> {
    const params: unknown[] = [orgId, environmentId, afterSeq, maxSeq];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    const where = ['org_id = $1', 'environment_id = $2', 'seq > $3', 'seq <= $4'];
    if (f.fromTime !== undefined) where.push(`created_at >= to_timestamp(${param(f.fromTime)})`);
    if (f.toTime !== undefined) where.push(`created_at <= to_timestamp(${param(f.toTime)})`);
    if (f.types) where.push(`type = ANY(${param(f.types)}::text[])`);
    if (f.flows) where.push(`(flows && ${param(f.flows)}::text[]${f.noProvenance ? " OR flows = '{}'" : ''})`);
    if (f.repos) where.push(`repo_names && ${param(f.repos)}::text[]`);
    return this.dataSource.query(`SELECT ${COLUMNS} FROM environment_events WHERE ${where.join(' AND ')} ORDER BY environment_events.seq LIMIT ${limit}`, params);
  }
}
