import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { ident, joinSql, Sql, sql, SqlIdent, trusted } from '../../../database/sql';
import { OutboxSql } from '../../outbox/outbox.module';

/** The outbox event of a new trail. */
export const TRAIL_STARTED = 'trail.started';

export type MomentKind = 'trail_begun' | 'template_changed' | 'attestation' | 'artifact' | 'decision' | 'trail_updated';

export interface LockedTrail {
  flowId: string;
  trailId: string;
  /** The template the trail is evaluated against (null: untemplated). */
  templateId: string | null;
}

export interface RecordedMoment {
  momentNumber: number;
  createdAt: Date;
}

/** A trail named by flow and trail name, as a request names it. */
export interface TrailName {
  flowName: string;
  trailName: string;
}

/** A named trail found (with the moment it is at) or what is missing. */
export type PinnedOrMissing = ({ trailId: string; momentNumber: number } & TrailName) | ({ missing: 'flow' | 'trail' } & TrailName);

/** One moment to add: the trail it belongs to and what it records (an attestation id, an artifact id ...). */
export interface MomentEntry {
  trailId: string;
  subjectId: string | null;
}

/** The moments that set a trail's own fields carry a copy of them (see FIELDS_SNAPSHOT). */
const FIELD_SETTING_KINDS: ReadonlySet<MomentKind> = new Set(['trail_begun', 'trail_updated']);

/** The trail's own fields as a moment keeps them: what `begin trail` can change later. */
const FIELDS_SNAPSHOT = sql`jsonb_build_object('description', t.description, 'git_commit_info', t.git_commit_info,
  'repo_info', t.repo_info, 'user_data', t.user_data, 'origin_url', t.origin_url, 'external_urls', t.external_urls)`;

/** A trail column a client may set, with its value and the SQL cast used to compare it with the stored one. */
export interface TrailField {
  column: 'description' | 'git_commit_info' | 'repo_info' | 'user_data' | 'origin_url' | 'external_urls';
  value: unknown;
  cast: '::text' | '::jsonb';
}

/**
 * Moment numbering, defined once. Every path that adds moments (one moment, a set of moments in one
 * transaction, and the one-statement attestation group) is built from these three pieces, so they cannot
 * number differently:
 * - `advance`: a CTE body that moves each trail of `source` (columns `trail_id`, `n`) on by `n` moments and
 *   stamps the trail's `updated_at`; it returns `trail_id, trail_org_id, flow_id, last_moment, template_id, moment_at, n`
 *   (plus the `carry` columns of the source);
 * - `number`: the moment number of the `position`-th (from 1) of those `n` moments;
 * - `insert`: the INSERT into `trail_moments` for a SELECT of (org_id, trail_id, moment_number, created_at, kind,
 *   template_id, subject_id).
 * The trail row stays locked until the transaction commits, so a trail's moments are 1, 2, 3 ... without
 * gaps, and every moment of one statement carries the same `created_at` as its trail's `updated_at`.
 */
export const MomentSql = {
  advance(source: SqlIdent, options: { carry?: readonly SqlIdent[]; alsoFrom?: SqlIdent; where?: Sql } = {}): Sql {
    const carry = joinSql((options.carry ?? []).map((c) => sql`, s.${c}`), '');
    return sql`UPDATE trails t SET last_moment = t.last_moment + s.n, updated_at = clock_timestamp()
       FROM ${source} s${options.alsoFrom ? sql`, ${options.alsoFrom}` : sql``}
       WHERE t.id = s.trail_id${options.where ? sql` AND ${options.where}` : sql``}
       RETURNING t.id AS trail_id, t.org_id AS trail_org_id, t.flow_id, t.last_moment, t.template_id, t.updated_at AS moment_at, s.n${carry}`;
  },
  number(advanced: SqlIdent, position: Sql): Sql {
    return sql`${advanced}.last_moment - ${advanced}.n + ${position}`;
  },
  /** `extraColumns`: moment columns beyond the seven (the trail fields snapshot). */
  insert(select: Sql, extraColumns: ReadonlyArray<'fields'> = []): Sql {
    const extra = joinSql(extraColumns.map((c) => sql`, ${ident(c)}`), '');
    return sql`INSERT INTO trail_moments (org_id, trail_id, moment_number, created_at, kind, template_id, subject_id${extra}) ${select}`;
  },
};

/** The `trail.started` event of a new trail (CTE `ins`), when its org subscribes: built once. */
const TRAIL_STARTED_EVENTS = OutboxSql.insert(
  sql`SELECT ins.org_id, ${trusted(`'${TRAIL_STARTED}'`)}, jsonb_build_object('flow', f.name, 'trail', ins.name), jsonb_build_object('created_by', ins.created_by)
            FROM ins JOIN flows f ON f.id = ins.flow_id WHERE ${OutboxSql.wanted(sql`ins.org_id`, TRAIL_STARTED)}`,
).text;

/** recordMoments' pieces, built once: the advance of CTE `k`, and the moment insert with or without the fields snapshot. */
const U = ident('u');
const ADVANCE_K = MomentSql.advance(ident('k')).text;
const INSERT_MOMENTS_WITH_FIELDS = MomentSql.insert(
  sql`SELECT u.trail_org_id, u.trail_id, ${MomentSql.number(U, sql`e.i`)}, u.moment_at, $6, u.template_id, e.subject_id, ${FIELDS_SNAPSHOT}
                FROM u JOIN unnest($3::uuid[], $4::uuid[], $5::int[]) AS e(trail_id, subject_id, i) ON e.trail_id = u.trail_id
                JOIN trails t ON t.id = u.trail_id`,
  ['fields'],
).text;
const INSERT_MOMENTS = MomentSql.insert(
  sql`SELECT u.trail_org_id, u.trail_id, ${MomentSql.number(U, sql`e.i`)}, u.moment_at, $6, u.template_id, e.subject_id
                FROM u JOIN unnest($3::uuid[], $4::uuid[], $5::int[]) AS e(trail_id, subject_id, i) ON e.trail_id = u.trail_id`,
).text;

/**
 * Owns the tables `trails` and `trail_moments` (a trail's append-only log: a moment is only ever written
 * together with its trail row's counter). Every SQL statement that writes either table is here or built from
 * MomentSql. Callers run inside a transaction (UnitOfWork).
 */
@Injectable()
export class TrailRepository {
  /** Locks the trail named `trailName` of flow `flowName` (FOR UPDATE), or null. */
  async lockByName(manager: EntityManager, orgId: string, flowName: string, trailName: string): Promise<LockedTrail | null> {
    const rows: Array<{ id: string; flow_id: string; template_id: string | null }> = await manager.query(
      `SELECT t.id, t.flow_id, t.template_id
       FROM flows f JOIN trails t ON t.flow_id = f.id
       WHERE f.org_id = $1 AND f.name = $2 AND t.name = $3
       FOR UPDATE OF t`,
      [orgId, flowName, trailName],
    );
    return rows.length ? { flowId: rows[0].flow_id, trailId: rows[0].id, templateId: rows[0].template_id } : null;
  }

  /** Locks the existing trails among `names` of one flow, in name order (the order every group writer uses). */
  async lockManyByName(manager: EntityManager, orgId: string, flowName: string, names: string[]): Promise<Map<string, LockedTrail>> {
    const rows: Array<{ id: string; name: string; flow_id: string; template_id: string | null }> = await manager.query(
      `SELECT t.id, t.name, t.flow_id, t.template_id
       FROM flows f JOIN trails t ON t.flow_id = f.id
       WHERE f.org_id = $1 AND f.name = $2 AND t.name = ANY($3::text[])
       ORDER BY t.name
       FOR UPDATE OF t`,
      [orgId, flowName, names],
    );
    return new Map(rows.map((t) => [t.name, { flowId: t.flow_id, trailId: t.id, templateId: t.template_id }]));
  }

  /**
   * Takes a share lock on each named trail that exists (id order) and then reads the clock: at that instant
   * every such trail is exactly at the moment returned (a writer needs the row exclusively before it numbers
   * and timestamps a moment, so later moments are later than the instant). The instant is Unix seconds as
   * exact decimal text (microseconds).
   */
  async pin(manager: EntityManager, orgId: string, names: TrailName[]): Promise<{ instant: string; trails: PinnedOrMissing[] }> {
    // One statement: `locked` takes the share locks (id order); the instant is read by a scalar subquery over
    // all of `locked`, so only once every lock is held. The locks last until the statement's transaction ends.
    const rows: Array<{ ord: string; flow_id: string | null; trail_id: string | null; last_moment: number | null; instant: string }> =
      await manager.query(
        `WITH r AS (
           SELECT r.ord, f.id AS flow_id, t.id AS trail_id
           FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS r(flow, trail, ord)
           LEFT JOIN flows f ON f.org_id = $1 AND f.name = r.flow
           LEFT JOIN trails t ON t.flow_id = f.id AND t.name = r.trail
         ), locked AS MATERIALIZED (
           SELECT t.id, t.last_moment FROM trails t WHERE t.id IN (SELECT trail_id FROM r) ORDER BY t.id FOR SHARE
         )
         SELECT r.ord, r.flow_id, r.trail_id, l.last_moment,
           (SELECT EXTRACT(EPOCH FROM date_trunc('microseconds', clock_timestamp()))::numeric::text
            FROM (SELECT count(*) FROM locked) AS all_locked) AS instant
         FROM r LEFT JOIN locked l ON l.id = r.trail_id
         ORDER BY r.ord`,
        [orgId, names.map((n) => n.flowName), names.map((n) => n.trailName)],
      );
    const instant = rows[0]?.instant ?? (await manager.query(`SELECT EXTRACT(EPOCH FROM date_trunc('microseconds', clock_timestamp()))::numeric::text AS instant`))[0].instant;
    return {
      instant,
      trails: names.map((name, i) => {
        const row = rows[i];
        if (!row.flow_id) return { ...name, missing: 'flow' as const };
        if (!row.trail_id) return { ...name, missing: 'trail' as const };
        return { ...name, trailId: row.trail_id, momentNumber: Number(row.last_moment) };
      }),
    };
  }

  async find(manager: EntityManager, orgId: string, name: TrailName): Promise<PinnedOrMissing> {
    const rows: Array<{ flow_id: string; trail_id: string | null; last_moment: number | null }> = await manager.query(
      `SELECT f.id AS flow_id, t.id AS trail_id, t.last_moment FROM flows f LEFT JOIN trails t ON t.flow_id = f.id AND t.name = $3
       WHERE f.org_id = $1 AND f.name = $2`,
      [orgId, name.flowName, name.trailName],
    );
    if (!rows.length) return { ...name, missing: 'flow' };
    if (!rows[0].trail_id) return { ...name, missing: 'trail' };
    return { ...name, trailId: rows[0].trail_id, momentNumber: Number(rows[0].last_moment) };
  }

  /** Locks the trail `name` of the flow with id `flowId`, or null. */
  async lockInFlow(manager: EntityManager, flowId: string, name: string): Promise<LockedTrail | null> {
    const rows: Array<{ id: string; template_id: string | null }> = await manager.query(
      `SELECT id, template_id FROM trails WHERE flow_id = $1 AND name = $2 FOR UPDATE`,
      [flowId, name],
    );
    return rows.length ? { flowId, trailId: rows[0].id, templateId: rows[0].template_id } : null;
  }

  /**
   * Inserts a trail unless one of that name exists in the flow (then null: ON CONFLICT waited for a
   * concurrent creator to commit). The new row is locked by this transaction; it has no moment yet. The same
   * statement appends the `trail.started` event (subject `{flow, trail}`, payload `{created_by}`) when the org
   * subscribes to it: every way a trail begins (begin trail, the first attestation or artifact) comes here.
   */
  async insertIfAbsent(
    manager: EntityManager,
    trail: { orgId: string; flowId: string; name: string; templateId: string | null; actor: string; fields?: TrailField[] },
  ): Promise<string | null> {
    const fields = trail.fields ?? [];
    const columns = ['id', 'org_id', 'flow_id', 'name', 'template_id', 'created_by', ...fields.map((f) => f.column)];
    const values = [randomUUID(), trail.orgId, trail.flowId, trail.name, trail.templateId, trail.actor, ...fields.map((f) => f.value)];
    const inserted: Array<{ id: string }> = await manager.query(
      `WITH ins AS (
         INSERT INTO trails (${columns.join(', ')}, created_at, updated_at)
         VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')}, clock_timestamp(), clock_timestamp())
         ON CONFLICT (flow_id, name, org_id) DO NOTHING RETURNING id, org_id, flow_id, name, created_by
       ), started AS (
         ${TRAIL_STARTED_EVENTS}
       )
       SELECT id FROM ins`,
      values,
    );
    return inserted.length ? inserted[0].id : null;
  }

  /** Sets the fields given; true when any stored value changed. */
  async updateFields(manager: EntityManager, trailId: string, fields: TrailField[]): Promise<boolean> {
    if (!fields.length) return false;
    const sets = fields.map((f, i) => `${f.column} = $${i + 2}`);
    const distinct = `(${fields.map((f) => f.column).join(', ')}) IS DISTINCT FROM (${fields.map((f, i) => `$${i + 2}${f.cast}`).join(', ')})`;
    const updated = await manager.query(`UPDATE trails SET ${sets.join(', ')} WHERE id = $1 AND ${distinct} RETURNING id`, [
      trailId,
      ...fields.map((f) => f.value),
    ]);
    // TypeORM answers an UPDATE with [rows, rowCount].
    return Number(updated[1] ?? 0) > 0;
  }

  async setTemplate(manager: EntityManager, trailId: string, templateId: string): Promise<void> {
    await manager.query(`UPDATE trails SET template_id = $2 WHERE id = $1`, [trailId, templateId]);
  }

  /**
   * Adds one moment of `kind` per entry, in entry order within each trail, for any number of locked trails in
   * one statement. Returns each entry's moment.
   */
  async recordMoments(manager: EntityManager, kind: MomentKind, entries: MomentEntry[]): Promise<RecordedMoment[]> {
    const perTrail = new Map<string, number>();
    const position = entries.map((e) => {
      const n = (perTrail.get(e.trailId) ?? 0) + 1;
      perTrail.set(e.trailId, n);
      return n;
    });
    const rows: Array<{ trail_id: string; moment_number: number; created_at: Date }> = await manager.query(
      `WITH k AS (
         SELECT * FROM unnest($1::uuid[], $2::int[]) AS k(trail_id, n)
       ), u AS (
         ${ADVANCE_K}
       )
       ${FIELD_SETTING_KINDS.has(kind) ? INSERT_MOMENTS_WITH_FIELDS : INSERT_MOMENTS}
       RETURNING trail_id, moment_number, created_at`,
      [[...perTrail.keys()], [...perTrail.values()], entries.map((e) => e.trailId), entries.map((e) => e.subjectId), position, kind],
    );
    if (rows.length !== entries.length) throw new Error(`recorded ${rows.length} of ${entries.length} moments: a trail was not found`);
    // Within a trail, the i-th entry took the i-th lowest of its new moment numbers.
    const first = new Map<string, number>();
    for (const row of rows) {
      const n = Number(row.moment_number);
      first.set(row.trail_id, Math.min(first.get(row.trail_id) ?? n, n));
    }
    const createdAt = new Map(rows.map((row) => [row.trail_id, new Date(row.created_at)]));
    return entries.map((e, i) => ({ momentNumber: first.get(e.trailId)! + position[i] - 1, createdAt: createdAt.get(e.trailId)! }));
  }
}
