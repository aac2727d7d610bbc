import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../common/config/app-config';
import { InjectConfig } from '../../../common/config/config.decorators';
import { ident, selectList, sql } from '../../../database/sql';
import { NotFoundError } from '../../../common/errors/app-error';
import { attestationRowsFrom, AttestationRow, toAttestationResponse } from '../../attestations/attestations.module';
import { EMPTY_TEMPLATE, FlowDirectory, StoredTemplate } from '../../flows/flows.module';
import { evaluateCompliance, SlotAttestation } from '../domain/compliance';
import { ArtifactRecord, MomentRecord, TrailEvent, TrailFields, TrailRecord, TrailState } from '../domain/trail-state';
import { MomentEventRow, toTrailEvent } from '../dto/trail-event';
import { MAX_MOMENT, MomentSelector } from '../../../common/moments/moment-expression';

/**
 * The tables this read model reads, each with the module that owns (writes) it. It joins them in one statement
 * where a state must be one consistent snapshot, writes none of them, and reads no other:
 * trail-state.reader.spec.ts checks its SQL against this list, so a new table is declared here first.
 */
export const TRAIL_STATE_READS = {
  trails: 'ledger',
  trail_moments: 'ledger',
  flows: 'flows',
  flow_renames: 'flows', // an attestation's flow name as it was when recorded (flowNameAt)
  organizations: 'organizations',
  attestations: 'attestations',
  artifacts: 'artifacts',
  repos: 'repos',
} as const;

/** The columns of TrailRecord (aliases: t = trails, f = flows), one typed expression per field. */
export const TRAIL_COLUMNS = selectList<TrailRecord>({
  id: sql`t.id`,
  org_id: sql`t.org_id`,
  flow_id: sql`t.flow_id`,
  flow_name: sql`f.name`,
  flow_tags: sql`f.tags`,
  name: sql`t.name`,
  description: sql`t.description`,
  template_id: sql`t.template_id`,
  git_commit_info: sql`t.git_commit_info`,
  repo_info: sql`t.repo_info`,
  // The repo the trail's `repo_info` registered: keyed by provider and the provider's id (src/modules/trails/README.md, Repos).
  repo_id: sql`(SELECT r.id FROM repos r WHERE r.org_id = t.org_id
     AND r.external_id = COALESCE(NULLIF(t.repo_info->>'id', ''), t.repo_info->>'name')
     AND r.provider IS NOT DISTINCT FROM NULLIF(t.repo_info->>'provider', ''))`,
  user_data: sql`t.user_data`,
  origin_url: sql`t.origin_url`,
  external_urls: sql`t.external_urls`,
  last_moment: sql`t.last_moment`,
  created_by: sql`t.created_by`,
  created_at: sql`EXTRACT(EPOCH FROM t.created_at)::float8`,
  updated_at: sql`EXTRACT(EPOCH FROM t.updated_at)::float8`,
});
const TRAIL_COLUMNS_TEXT = TRAIL_COLUMNS.sql.text;

const AGO_UNITS = { second: 'second', minute: 'minute', hour: 'hour', day: 'day', week: 'week', month: 'month' } as const;

/**
 * CTEs (for a `WITH RECURSIVE`) ending in `latest`: the latest attestation of every slot of trail `trailId`
 * among those recorded at moments <= `upTo` (both SQL expressions). A skip scan of attestations_trail_slot_idx:
 * the recursive parts walk the distinct (artifact_name, name) pairs, one index probe per slot, then one
 * backward probe per slot finds its latest row at or before the moment. The cost follows the number of
 * slots, not the number of attestations. (`ORDER BY artifact_name, name` even where artifact_name IS NULL, so
 * the planner sees the index order and does not sort.)
 */
function latestSlotCtes(trailId: string, upTo: string): string {
  return `trail_slots AS (
      (SELECT name FROM attestations WHERE trail_id = ${trailId} AND artifact_name IS NULL ORDER BY artifact_name, name LIMIT 1)
      UNION ALL
      SELECT (SELECT x.name FROM attestations x
              WHERE x.trail_id = ${trailId} AND x.artifact_name IS NULL AND x.name > s.name
              ORDER BY x.artifact_name, x.name LIMIT 1)
      FROM trail_slots s WHERE s.name IS NOT NULL
    ), artifact_slots AS (
      (SELECT artifact_name, name FROM attestations WHERE trail_id = ${trailId} AND artifact_name IS NOT NULL
       ORDER BY artifact_name, name LIMIT 1)
      UNION ALL
      SELECT n.artifact_name, n.name FROM artifact_slots s CROSS JOIN LATERAL (
        SELECT x.artifact_name, x.name FROM attestations x
        WHERE x.trail_id = ${trailId} AND (x.artifact_name, x.name) > (s.artifact_name, s.name)
        ORDER BY x.artifact_name, x.name LIMIT 1) n
    ), latest AS (
      SELECT l.* FROM trail_slots s CROSS JOIN LATERAL (
        SELECT * FROM attestations x
        WHERE x.trail_id = ${trailId} AND x.artifact_name IS NULL AND x.name = s.name AND x.moment_number <= ${upTo}
        ORDER BY x.artifact_name DESC, x.name DESC, x.moment_number DESC LIMIT 1) l
      UNION ALL
      SELECT l.* FROM artifact_slots s CROSS JOIN LATERAL (
        SELECT * FROM attestations x
        WHERE x.trail_id = ${trailId} AND x.artifact_name = s.artifact_name AND x.name = s.name AND x.moment_number <= ${upTo}
        ORDER BY x.artifact_name DESC, x.name DESC, x.moment_number DESC LIMIT 1) l
    )`;
}

/** The `latest` CTE's rows as AttestationRow (the attestations module's typed select list), built once. */
const LATEST_SLOT_ROWS = attestationRowsFrom(ident('latest')).text;

/** Latest report per artifact template name of trail `trailId` at moments <= `upTo`. */
function latestArtifactsSql(trailId: string, upTo: string): string {
  return `SELECT DISTINCT ON (template_reference_name)
      id, template_reference_name AS name, fingerprint, filename, moment_number,
      EXTRACT(EPOCH FROM created_at)::float8 AS created_at
    FROM artifacts WHERE trail_id = ${trailId} AND moment_number <= ${upTo}
    ORDER BY template_reference_name DESC, moment_number DESC`;
}

/**
 * The one statement behind TrailStateReader.readAt: trail, selected moment, latest slot rows and artifact rows
 * as of that moment (exported for bench/moments, which times it in SQL alone).
 */
export function readAtQuery(
  orgId: string,
  flowName: string,
  trailName: string,
  selector: MomentSelector,
  withState = true,
): { sql: string; params: unknown[] } {
  return trailAtQuery(orgId, { flowName, trailName }, selector, withState);
}

/** A trail by its names, or by its id (a trail already resolved, e.g. pinned by the ledger). */
export type TrailAddress = { flowName: string; trailName: string } | { trailId: string };

/**
 * The read by names: every flow of that name (none: no rows, the flow is missing), with its trail of that name
 * (none: a row with a null id). The read by id: the trail and its flow (none: no rows).
 */
const BY_NAME = {
  from: `FROM flows f
       LEFT JOIN trails t ON t.flow_id = f.id AND t.name = $3`,
  where: `WHERE f.org_id = $1 AND f.name = $2`,
};
const BY_ID = {
  from: `FROM trails t
       JOIN flows f ON f.id = t.flow_id`,
  where: `WHERE t.org_id = $1 AND t.id = $2`,
};

function trailAtQuery(orgId: string, address: TrailAddress, selector: MomentSelector, withState: boolean): { sql: string; params: unknown[] } {
  const byId = 'trailId' in address;
  const params: unknown[] = byId ? [orgId, address.trailId] : [orgId, address.flowName, address.trailName];
  const { from, where: addressed } = byId ? BY_ID : BY_NAME;
  /** the selector's parameter, after the address's */
  const p = `$${params.length + 1}`;
  let where: string;
  let order = '';
  switch (selector.kind) {
    case 'number':
    case 'back':
      if (selector.kind === 'number' && selector.number > MAX_MOMENT) where = 'false';
      else {
        params.push(selector.kind === 'number' ? selector.number : selector.steps);
        where = selector.kind === 'number' ? `m.moment_number = ${p}` : `m.moment_number = t.last_moment - ${p}`;
      }
      break;
    case 'at':
      params.push(selector.epochMicros.toString());
      where = `m.created_at <= 'epoch'::timestamptz + ${p}::bigint * interval '1 microsecond'`;
      order = 'ORDER BY m.created_at DESC, m.moment_number DESC';
      break;
    case 'now':
      where = 'm.created_at <= now()';
      order = 'ORDER BY m.created_at DESC, m.moment_number DESC';
      break;
    case 'ago':
      params.push(selector.amount);
      where = `m.created_at <= now() - ${p}::int * interval '1 ${AGO_UNITS[selector.unit]}'`;
      order = 'ORDER BY m.created_at DESC, m.moment_number DESC';
      break;
  }
  const tr = `tr AS (
       SELECT ${TRAIL_COLUMNS_TEXT}, m.moment_number AS m_number,
         EXTRACT(EPOCH FROM m.created_at)::float8 AS m_created_at, m.template_id AS m_template_id, mf.fields AS m_fields,
         (SELECT r.id FROM repos r WHERE r.org_id = t.org_id
            AND r.external_id = COALESCE(NULLIF(mf.fields->'repo_info'->>'id', ''), mf.fields->'repo_info'->>'name')
            AND r.provider IS NOT DISTINCT FROM NULLIF(mf.fields->'repo_info'->>'provider', '')) AS m_repo_id
       ${from}
       LEFT JOIN LATERAL (
         SELECT m.moment_number, m.created_at, m.template_id FROM trail_moments m
         WHERE m.trail_id = t.id AND ${where} ${order} LIMIT 1
       ) m ON true
       LEFT JOIN LATERAL (
         SELECT x.fields FROM trail_moments x
         WHERE x.trail_id = t.id AND x.fields IS NOT NULL AND x.moment_number <= m.moment_number
         ORDER BY x.moment_number DESC LIMIT 1
       ) mf ON true
       ${addressed}
     )`;
  if (!withState) return { sql: `WITH ${tr} SELECT tr.*, NULL AS slot_rows, NULL AS artifact_rows FROM tr`, params };
  const text = `WITH RECURSIVE ${tr}, ${latestSlotCtes('(SELECT id FROM tr)', '(SELECT m_number FROM tr)')}
     SELECT tr.*,
       (SELECT json_agg(x ORDER BY x.moment_number) FROM (${LATEST_SLOT_ROWS}) x) AS slot_rows,
       (SELECT json_agg(y ORDER BY y.moment_number)
          FROM (${latestArtifactsSql('(SELECT id FROM tr)', '(SELECT m_number FROM tr)')}) y) AS artifact_rows
     FROM tr`;
  return { sql: text, params };
}

/**
 * Read side of trails: a trail's state at any moment N is the latest row per slot among the rows stamped with
 * moment_number <= N (a skip scan of the (trail_id, artifact_name, name, moment_number) index, see slotsAt);
 * nothing is copied per moment. Also the read side other modules (evaluations) resolve trails through.
 */
@Injectable()
export class TrailStateReader {
  constructor(
    private readonly dataSource: DataSource,
    private readonly flows: FlowDirectory,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /**
   * One trail as of the moment an expression selects, in one round trip: the trail row, the moment (null when
   * the expression resolves to nothing) and, for a moment, its compliance state against the template in force
   * then. 404 for a missing flow or trail.
   */
  async readAt(
    orgId: string,
    flowName: string,
    trailName: string,
    selector: MomentSelector,
    withState = true,
    /** the base of the `html_url`s in the state (the service's own by default) */
    publicBaseUrl = this.config.publicBaseUrl,
  ): Promise<{ trail: TrailRecord; moment: MomentRecord | null; state: TrailState | null }> {
    return this.readAddressed(orgId, { flowName, trailName }, selector, withState, publicBaseUrl);
  }

  /**
   * readAt for a trail already resolved to its id (the ledger pinned it): the same answer, without resolving
   * its names again.
   */
  async readByIdAt(
    orgId: string,
    trailId: string,
    selector: MomentSelector,
    withState = true,
    publicBaseUrl = this.config.publicBaseUrl,
  ): Promise<{ trail: TrailRecord; moment: MomentRecord | null; state: TrailState | null }> {
    return this.readAddressed(orgId, { trailId }, selector, withState, publicBaseUrl);
  }

  private async readAddressed(
    orgId: string,
    address: TrailAddress,
    selector: MomentSelector,
    withState: boolean,
    publicBaseUrl: string,
  ): Promise<{ trail: TrailRecord; moment: MomentRecord | null; state: TrailState | null }> {
    const { sql: text, params } = trailAtQuery(orgId, address, selector, withState);
    const rows: Array<
      TrailRecord & {
        m_number: number | null;
        m_created_at: number | null;
        m_template_id: string | null;
        m_fields: TrailFields | null;
        m_repo_id: string | null;
        slot_rows: AttestationRow[] | null;
        artifact_rows: ArtifactRecord[] | null;
      }
    > = await this.dataSource.query(text, params);
    if ('trailId' in address) {
      if (!rows.length) throw new NotFoundError(`Trail '${address.trailId}' not found`);
    } else {
      if (!rows.length) throw new NotFoundError(`Flow '${address.flowName}' not found`);
      if (!rows[0].id) throw new NotFoundError(`Trail '${address.trailName}' not found in flow '${address.flowName}'`);
    }
    const row = rows[0];
    if (row.m_number === null) return { trail: row, moment: null, state: null };
    const moment = {
      momentNumber: row.m_number,
      createdAt: Number(row.m_created_at),
      templateId: row.m_template_id,
      fields: row.m_fields,
      repoId: row.m_repo_id,
    };
    if (!withState) return { trail: row, moment, state: null };
    const template = moment.templateId ? await this.flows.template(moment.templateId) : null;
    const state = this.assemble(template, row.slot_rows ?? [], row.artifact_rows ?? [], publicBaseUrl);
    return { trail: row, moment, state };
  }

  /** State of one trail as of moment `upTo`, against the template in force then. */
  async stateOf(trailId: string, templateId: string | null, upTo: number): Promise<TrailState> {
    const [template, attestations, artifacts] = await Promise.all([
      templateId ? this.flows.template(templateId) : Promise.resolve(null),
      this.slotsAt(trailId, upTo),
      this.latestArtifacts([trailId], upTo),
    ]);
    return this.assemble(template, attestations, artifacts.get(trailId) ?? []);
  }

  /** The latest attestation of every slot of one trail at moments <= `upTo` (see latestSlotCtes). */
  private async slotsAt(trailId: string, upTo: number): Promise<AttestationRow[]> {
    return this.dataSource.query(`WITH RECURSIVE ${latestSlotCtes('$1', '$2')} ${LATEST_SLOT_ROWS} ORDER BY a.moment_number`, [
      trailId,
      upTo,
    ]);
  }

  /**
   * Current state of many trails (a list page), each as of its last committed moment: one skip scan per
   * trail (a few at a time) plus one artifact query for the page.
   */
  async currentStates(trails: Array<{ id: string; template_id: string | null; last_moment: number }>): Promise<Map<string, TrailState>> {
    const artifacts = await this.latestArtifacts(trails.map((t) => t.id), null);
    const out = new Map<string, TrailState>();
    const queue = [...trails];
    const worker = async () => {
      for (let t = queue.shift(); t; t = queue.shift()) {
        const [template, rows] = await Promise.all([
          t.template_id ? this.flows.template(t.template_id) : Promise.resolve(null),
          this.slotsAt(t.id, t.last_moment),
        ]);
        const reported = (artifacts.get(t.id) ?? []).filter((a) => a.moment_number <= t.last_moment);
        out.set(t.id, this.assemble(template, rows, reported));
      }
    };
    await Promise.all(Array.from({ length: Math.min(4, trails.length) }, worker));
    return out;
  }

  /**
   * The trail's history as the reference's `events`, one per moment up to `upTo`, with what the CLI prints:
   * the attestation or artifact a moment recorded is joined in by its id.
   */
  async events(trailId: string, upTo: number): Promise<TrailEvent[]> {
    const rows: MomentEventRow[] = await this.dataSource.query(
      `SELECT m.moment_number, EXTRACT(EPOCH FROM m.created_at)::float8 AS ts, m.kind, m.subject_id,
         a.id AS attestation_id, a.name, a.artifact_name, a.attestation_type, a.is_compliant, a.git_commit_info AS att_commit,
         r.fingerprint, r.filename, r.template_reference_name, r.git_commit_info AS art_commit
       FROM trail_moments m
       LEFT JOIN attestations a ON m.kind IN ('attestation', 'decision') AND a.id = m.subject_id
       LEFT JOIN artifacts r ON m.kind = 'artifact' AND r.id = m.subject_id
       WHERE m.trail_id = $1 AND m.moment_number <= $2
       ORDER BY m.moment_number`,
      [trailId, upTo],
    );
    return rows.map(toTrailEvent);
  }

  private assemble(
    template: StoredTemplate | null,
    rows: AttestationRow[],
    artifacts: ArtifactRecord[],
    publicBaseUrl = this.config.publicBaseUrl,
  ): TrailState {
    const slots: SlotAttestation[] = rows.map((row) => ({
      id: row.id,
      name: row.name,
      artifactName: row.artifact_name,
      type: row.attestation_type,
      isCompliant: row.is_compliant,
      fields: toAttestationResponse(row, publicBaseUrl),
    }));
    const compliance = evaluateCompliance(template ? template.spec ?? EMPTY_TEMPLATE : null, slots, artifacts);
    return { template, compliance, artifacts: new Map(artifacts.map((a) => [a.name, a])) };
  }

  private async latestArtifacts(trailIds: string[], upTo: number | null): Promise<Map<string, ArtifactRecord[]>> {
    const params: unknown[] = [trailIds.length === 1 ? trailIds[0] : trailIds];
    const which = trailIds.length === 1 ? 'trail_id = $1' : 'trail_id = ANY($1::uuid[])';
    let bound = '';
    if (upTo !== null) {
      params.push(upTo);
      bound = 'AND moment_number <= $2';
    }
    const rows: Array<{ trail_id: string; id: string; name: string; fingerprint: string; filename: string; moment_number: number; created_at: number }> =
      await this.dataSource.query(
        `SELECT * FROM (
           SELECT DISTINCT ON (trail_id, template_reference_name)
             trail_id, id, template_reference_name AS name, fingerprint, filename, moment_number,
             EXTRACT(EPOCH FROM created_at)::float8 AS created_at
           FROM artifacts
           WHERE ${which} ${bound}
           ORDER BY trail_id DESC, template_reference_name DESC, moment_number DESC
         ) x ORDER BY moment_number`,
        params,
      );
    return groupBy(
      rows.map((r) => ({ ...r, created_at: Number(r.created_at) })),
      (r) => r.trail_id,
    );
  }
}

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = out.get(k);
    if (list) list.push(row);
    else out.set(k, [row]);
  }
  return out;
}
