import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { NotFoundError } from '../../../common/errors/app-error';
import { preparedQuery, preparedQueryIn } from '../../../database/prepared-query';
import { ident, selectList, Sql, sql, SqlIdent } from '../../../database/sql';
import { flowNameAt } from '../../flows/flows.module';

/**
 * One attestation as read by `attestationRowsFrom` (raw SQL, snake_case). `created_at` is Unix seconds with the
 * microseconds PostgreSQL stored.
 */
export interface AttestationRow {
  id: string;
  org_name: string;
  flow_name: string;
  trail_name: string;
  flow_seq: string | number;
  moment_number: number;
  name: string;
  artifact_name: string | null;
  artifact_fingerprint: string | null;
  attestation_type: string;
  schema_version: number;
  is_compliant: boolean;
  description: string;
  origin_url: string | null;
  external_urls: Record<string, { href: string; fingerprint?: string }> | null;
  annotations: Record<string, string> | null;
  user_data: unknown;
  git_commit_info: Record<string, unknown> | null;
  repo_info: Record<string, unknown> | null;
  data: Record<string, unknown> | null;
  /** lowercase hex, or null without attachment */
  evidence_sha256: string | null;
  evidence_filename: string | null;
  evidence_size: string | number | null;
  evidence_content_type: string | null;
  reported_by: string;
  created_at: number | string;
}

/**
 * The columns of AttestationRow, one typed expression per field (aliases: a = attestations, f = flows,
 * t = trails, o = organizations): renaming a field of AttestationRow without its column does not compile.
 */
const ATTESTATION_COLUMNS = selectList<AttestationRow>({
  id: sql`a.id`,
  org_name: sql`o.name`,
  // As the flow was named when the attestation was recorded: a later rename does not change a recorded attestation.
  flow_name: flowNameAt(ident('f'), sql`a.created_at`),
  trail_name: sql`t.name`,
  flow_seq: sql`a.flow_seq`,
  moment_number: sql`a.moment_number`,
  name: sql`a.name`,
  artifact_name: sql`a.artifact_name`,
  artifact_fingerprint: sql`a.artifact_fingerprint`,
  attestation_type: sql`a.attestation_type`,
  schema_version: sql`a.schema_version`,
  is_compliant: sql`a.is_compliant`,
  description: sql`a.description`,
  origin_url: sql`a.origin_url`,
  external_urls: sql`a.external_urls`,
  annotations: sql`a.annotations`,
  user_data: sql`a.user_data`,
  git_commit_info: sql`a.git_commit_info`,
  repo_info: sql`a.repo_info`,
  data: sql`a.data`,
  evidence_sha256: sql`encode(a.evidence_sha256, 'hex')`,
  evidence_filename: sql`a.evidence_filename`,
  evidence_size: sql`a.evidence_size`,
  evidence_content_type: sql`a.evidence_content_type`,
  reported_by: sql`a.reported_by`,
  created_at: sql`EXTRACT(EPOCH FROM a.created_at)::float8`,
});

/**
 * `SELECT <AttestationRow columns> FROM <source> a JOIN flows f JOIN trails t JOIN organizations o`: the rows of
 * `source` (the attestations table, or a CTE with its columns) as AttestationRow; continue with `WHERE ...`
 * on those aliases. Built once per source, at module load.
 */
export function attestationRowsFrom(source: SqlIdent): Sql {
  return sql`SELECT ${ATTESTATION_COLUMNS.sql}
  FROM ${source} a
  JOIN flows f ON f.id = a.flow_id
  JOIN trails t ON t.id = a.trail_id
  JOIN organizations o ON o.id = a.org_id`;
}

/** Every reader of this module selects attestation rows with this text. */
export const ATTESTATION_ROWS = attestationRowsFrom(ident('attestations'));
const ROWS = ATTESTATION_ROWS.text;
/** The same rows with their org and `recorded_at` (RFC 3339 UTC, microseconds), for their evidence log entries. */
const WRITTEN_ROWS = sql`SELECT ${ATTESTATION_COLUMNS.sql}, a.org_id,
    to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS recorded_at
  FROM attestations a
  JOIN flows f ON f.id = a.flow_id
  JOIN trails t ON t.id = a.trail_id
  JOIN organizations o ON o.id = a.org_id`.text;

/**
 * Attestations committed past per-flow positions (the evidence log's cursors): a flow's `flow_seq` numbers are
 * dense and taken under its counter row, which stays locked until commit, so every row up to the counter's
 * committed count is committed, and a flow's rows commit in `flow_seq` order. At most $3 rows in all, oldest
 * first ($1 flow ids, $2 their positions; a flow not listed is at 0), and for each flow a prefix of what follows
 * its position.
 *
 * Each flow with rows past its position is read up to a share of $3 (at least 16 rows): with thousands of flows
 * behind (an upgrade's backfill), reading $3 rows of every one of them to keep $3 took seconds a round. A flow
 * cut at its share may have older rows than the other flows' newest ones: only rows no later than the earliest
 * cut (the horizon: the last row read of every cut flow) are taken, so the answer is still the oldest rows, in
 * `created_at` order, and each round takes at least that flow's share.
 */
const COMMITTED_AFTER = sql`WITH k AS (
    SELECT * FROM unnest($1::uuid[], $2::bigint[]) AS k(flow_id, seq)
  ), moved AS (
    SELECT c.org_id, c.flow_id, COALESCE(k.seq, 0) AS after, c.attestation_count AS committed
    FROM flow_attestation_counters c LEFT JOIN k ON k.flow_id = c.flow_id
    WHERE c.attestation_count > COALESCE(k.seq, 0)
  ), share AS MATERIALIZED (
    SELECT GREATEST(16, ceil($3::float8 / GREATEST(count(*), 1)))::bigint AS n FROM moved
  ), span AS MATERIALIZED (
    SELECT m.org_id, m.flow_id, m.after, LEAST(m.committed, m.after + s.n, m.after + $3) AS upto,
      m.committed > m.after + s.n AS cut
    FROM moved m, share s
  ), horizon AS MATERIALIZED (
    SELECT min(x.created_at) AS at
    FROM span m JOIN attestations x ON x.org_id = m.org_id AND x.flow_id = m.flow_id AND x.flow_seq = m.upto
    WHERE m.cut
  )
  SELECT ${ATTESTATION_COLUMNS.sql}, a.org_id,
    to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS recorded_at,
    a.flow_id AS log_stream, a.flow_seq AS log_position
  FROM span m
  -- per flow, a range of its (org_id, flow_id, flow_seq) key: never a scan of the table
  CROSS JOIN LATERAL (
    SELECT * FROM attestations x
    WHERE x.org_id = m.org_id AND x.flow_id = m.flow_id AND x.flow_seq > m.after AND x.flow_seq <= m.upto
    ORDER BY x.flow_seq
  ) a
  CROSS JOIN horizon h
  JOIN flows f ON f.id = a.flow_id
  JOIN trails t ON t.id = a.trail_id
  JOIN organizations o ON o.id = a.org_id
  WHERE h.at IS NULL OR a.created_at <= h.at
  ORDER BY a.created_at, a.flow_id, a.flow_seq
  LIMIT $3`.text;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

export interface FlowRef {
  id: string;
  attestationCount: number;
}

/** Read side of attestations: straight SQL to rows (mapped by toAttestationResponse). */
@Injectable()
export class AttestationReader {
  constructor(private readonly dataSource: DataSource) {}

  async flow(orgId: string, flowName: string): Promise<FlowRef> {
    const rows: Array<{ id: string; attestation_count: string }> = await this.dataSource.query(
      `SELECT f.id, COALESCE(c.attestation_count, 0) AS attestation_count
       FROM flows f LEFT JOIN flow_attestation_counters c ON c.org_id = f.org_id AND c.flow_id = f.id
       WHERE f.org_id = $1 AND f.name = $2`,
      [orgId, flowName],
    );
    if (!rows.length) throw new NotFoundError(`Flow '${flowName}' not found`);
    return { id: rows[0].id, attestationCount: Number(rows[0].attestation_count) };
  }

  async trailId(orgId: string, flowName: string, trailName: string): Promise<string> {
    const rows: Array<{ flow_id: string; trail_id: string | null }> = await this.dataSource.query(
      `SELECT f.id AS flow_id, t.id AS trail_id FROM flows f LEFT JOIN trails t ON t.flow_id = f.id AND t.name = $3
       WHERE f.org_id = $1 AND f.name = $2`,
      [orgId, flowName, trailName],
    );
    if (!rows.length) throw new NotFoundError(`Flow '${flowName}' not found`);
    if (!rows[0].trail_id) throw new NotFoundError(`Trail '${trailName}' not found in flow '${flowName}'`);
    return rows[0].trail_id;
  }

  /**
   * One page of a flow, newest first, in one statement: the flow lookup, the span's flow_seq bounds (two index
   * probes when a time span is given) and the page's range scan of attestations_flow_seq_key. Page P is
   * [hi - P*per_page + 1, hi - (P-1)*per_page] clipped to [lo, hi]: the same cost on page 1 and page 10,000.
   * Null when the flow does not exist.
   */
  async flowPage(
    orgId: string,
    flowName: string,
    page: number,
    perPage: number,
    from?: number,
    to?: number,
  ): Promise<{ total: number; rows: AttestationRow[] } | null> {
    const result: Array<AttestationRow & { span_lo: string; span_hi: string }> = await preparedQuery(
      this.dataSource,
      'veritrail_flow_attestation_page_v2',
      `WITH f AS (
         SELECT f.id, COALESCE(c.attestation_count, 0) AS n
         FROM flows f LEFT JOIN flow_attestation_counters c ON c.org_id = f.org_id AND c.flow_id = f.id
         WHERE f.org_id = $1 AND f.name = $2
       ), b AS MATERIALIZED (
         -- computed once (inlined, the bounds would be re-probed for every output row)
         SELECT f.id,
           CASE WHEN $3::float8 IS NULL THEN 1::bigint ELSE COALESCE(
             (SELECT x.flow_seq FROM attestations x WHERE x.flow_id = f.id AND x.created_at >= to_timestamp($3::float8)
              ORDER BY x.created_at, x.flow_seq LIMIT 1), f.n + 1) END AS lo,
           CASE WHEN $4::float8 IS NULL THEN f.n ELSE LEAST(f.n, COALESCE(
             (SELECT x.flow_seq FROM attestations x WHERE x.flow_id = f.id AND x.created_at <= to_timestamp($4::float8)
              ORDER BY x.created_at DESC, x.flow_seq DESC LIMIT 1), 0)) END AS hi
         FROM f
       )
       SELECT b.lo AS span_lo, b.hi AS span_hi, r.*
       FROM b LEFT JOIN LATERAL (
         ${ROWS}
         WHERE a.flow_id = b.id
           AND a.flow_seq BETWEEN GREATEST(b.lo, b.hi - $5::bigint * $6::bigint + 1) AND b.hi - ($5::bigint - 1) * $6::bigint
         ORDER BY a.flow_seq DESC
       ) r ON true`,
      [orgId, flowName, from ?? null, to ?? null, page, perPage],
    );
    if (!result.length) return null;
    const total = Math.max(0, Number(result[0].span_hi) - Number(result[0].span_lo) + 1);
    return { total, rows: result.filter((row) => row.id !== null) };
  }

  async inFlowById(flowId: string, id: string, from?: number, to?: number): Promise<AttestationRow[]> {
    if (!isUuid(id)) return [];
    return this.dataSource.query(
      `${ROWS}
       WHERE a.flow_id = $1 AND a.id = $2
         AND ($3::float8 IS NULL OR a.created_at >= to_timestamp($3::float8))
         AND ($4::float8 IS NULL OR a.created_at <= to_timestamp($4::float8))`,
      [flowId, id, from ?? null, to ?? null],
    );
  }

  async inOrgById(orgId: string, id: string): Promise<AttestationRow[]> {
    if (!isUuid(id)) return [];
    return this.dataSource.query(`${ROWS} WHERE a.org_id = $1 AND a.id = $2`, [orgId, id]);
  }

  /**
   * Rows just written, read inside the writer's transaction (for their evidence log entries: the same columns
   * as the read routes, plus `recorded_at`, the creation time as RFC 3339 UTC with microseconds).
   */
  async writtenInTransaction(manager: EntityManager, ids: string[]): Promise<Array<AttestationRow & { org_id: string; recorded_at: string }>> {
    return manager.query(
      `${WRITTEN_ROWS} WHERE a.id = ANY($1::uuid[]) ORDER BY a.flow_seq`,
      [ids],
    );
  }

  /**
   * For the evidence log: attestation rows committed past the given per-flow positions (see COMMITTED_AFTER),
   * each with its flow id and flow_seq as its stream and position.
   */
  async committedAfter(
    manager: EntityManager,
    positions: Array<{ stream: string; position: number }>,
    limit: number,
  ): Promise<Array<AttestationRow & { org_id: string; recorded_at: string; log_stream: string; log_position: string }>> {
    // Named: planned once per connection (the sequencer runs it every round).
    return preparedQueryIn(manager, 'veritrail_attestations_committed_after_v2', COMMITTED_AFTER, [
      positions.map((p) => p.stream),
      positions.map((p) => p.position),
      limit,
    ]);
  }

  /** Versions of one slot, newest first: a trail slot (artifactName null) or `<artifact>.<name>`. */
  async slotVersions(trailId: string, artifactName: string | null, name: string): Promise<AttestationRow[]> {
    const artifact = artifactName === null ? 'a.artifact_name IS NULL' : 'a.artifact_name = $3';
    return this.dataSource.query(
      `${ROWS}
       WHERE a.trail_id = $1 AND ${artifact} AND a.name = $2
       ORDER BY a.moment_number DESC, a.flow_seq DESC`,
      artifactName === null ? [trailId, name] : [trailId, name, artifactName],
    );
  }

  async evidenceOf(
    trailId: string,
    id: string,
  ): Promise<{ sha256: Buffer | null; filename: string | null; contentType: string | null } | null> {
    if (!isUuid(id)) return null;
    const rows: Array<{ evidence_sha256: Buffer | null; evidence_filename: string | null; evidence_content_type: string | null }> =
      await this.dataSource.query(
        `SELECT evidence_sha256, evidence_filename, evidence_content_type FROM attestations WHERE trail_id = $1 AND id = $2`,
        [trailId, id],
      );
    if (!rows.length) return null;
    return { sha256: rows[0].evidence_sha256, filename: rows[0].evidence_filename, contentType: rows[0].evidence_content_type };
  }
}
