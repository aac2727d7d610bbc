import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Sql, sql, trusted } from '../../../database/sql';

/** An event raised by a change, for whoever listens (notification delivery). */
export interface OutboxEvent {
  orgId: string;
  /** past tense, dotted: `trail.started`, `attestation.recorded`, `snapshot.created`, ... */
  type: string;
  /** what the event is about (flow, trail, environment names ...): what rules match on */
  subject: Record<string, unknown>;
  payload: Record<string, unknown>;
}

export interface StoredOutboxEvent extends OutboxEvent {
  id: string;
  createdAt: Date;
}

const EVENT_TYPE = /^[a-z][a-z_]*(\.[a-z][a-z_]*)+$/;

/**
 * SQL pieces for a statement that writes outbox events together with its own rows (the one-statement
 * attestation group, the insert of a new trail), so that the events' table and the subscription check are
 * defined here, once, as MomentSql does for moments:
 * (typed fragments, see src/database/sql.ts):
 * - `insert(select)`: the INSERT into `outbox_events` of a SELECT of (org_id, type, subject, payload);
 * - `wanted(orgId, type)`: a condition that org `orgId` (an SQL expression) subscribes to `type` (one primary-key
 *   probe): a hot path appends only the events someone will consume.
 * A statement that inserts events also wakes the relays (a trigger sends NOTIFY veritrail_outbox on commit).
 */
export const OutboxSql = {
  insert(select: Sql): Sql {
    return sql`INSERT INTO outbox_events (org_id, type, subject, payload) ${select}`;
  },
  wanted(orgId: Sql, type: string): Sql {
    if (!EVENT_TYPE.test(type)) throw new Error(`invalid event type '${type}'`);
    // the type is a checked constant of the caller's code: written as a literal, so the statement's text (and
    // its parameter list) stays what a prepared statement expects
    return sql`EXISTS (SELECT 1 FROM outbox_subscriptions s WHERE s.org_id = ${orgId} AND s.event_type = ${trusted(`'${type}'`)})`;
  },
  /**
   * A condition that the subscriptions are still at `version` (an SQL expression): a statement that leaves its
   * events out because a copy of the subscriptions said nobody wants them is written only if that copy is
   * still current when the statement runs.
   */
  unchangedSince(version: Sql): Sql {
    return sql`(SELECT v.version FROM outbox_subscription_version v WHERE v.id = 1) = ${version}`;
  },
};

/** The two inserts of `append` (all events, or only those some subscription wants), built once. */
const APPEND = (onlyIfWanted: boolean) =>
  OutboxSql.insert(
    sql`SELECT e.org_id, e.type, e.subject, e.payload
         FROM unnest($1::uuid[], $2::text[], $3::jsonb[], $4::jsonb[]) WITH ORDINALITY AS e(org_id, type, subject, payload, ord)
         ${onlyIfWanted ? sql`WHERE EXISTS (SELECT 1 FROM outbox_subscriptions s WHERE s.org_id = e.org_id AND s.event_type = e.type)` : sql``}
         ORDER BY e.ord`,
  ).text;
const APPEND_ALL = APPEND(false);
const APPEND_WANTED = APPEND(true);

/** Every subscription at one version (what a process copies to decide without a query). */
export interface SubscriptionRows {
  version: string;
  rows: Array<{ org_id: string; event_type: string }>;
}

/** The channel a relay listens on: every committed outbox insert notifies it (see the migration's trigger). */
export const OUTBOX_CHANNEL = 'veritrail_outbox';

/** Owns `outbox_events`, `outbox_subscriptions` and `outbox_subscription_version`. */
@Injectable()
export class OutboxEventRepository {
  /** Appends events in the caller's transaction: they exist if and only if it commits. */
  async append(manager: EntityManager, events: OutboxEvent[], onlyIfWanted = false): Promise<void> {
    if (!events.length) return;
    await manager.query(
      onlyIfWanted ? APPEND_WANTED : APPEND_ALL,
      [events.map((e) => e.orgId), events.map((e) => e.type), events.map((e) => JSON.stringify(e.subject)), events.map((e) => JSON.stringify(e.payload))],
    );
  }

  /**
   * Takes up to `limit` undispatched events (of the given types, or any), oldest first, and marks them
   * dispatched, in the caller's transaction (rows another transaction is taking are skipped). If that
   * transaction rolls back, they are pending again.
   */
  async claim(manager: EntityManager, limit: number, types?: readonly string[]): Promise<StoredOutboxEvent[]> {
    const rows: Array<{ id: string; org_id: string; type: string; subject: Record<string, unknown>; payload: Record<string, unknown>; created_at: Date }> =
      await manager.query(
        // (a top-level SELECT: TypeORM answers a top-level UPDATE with [rows, count])
        `WITH c AS (
           SELECT id FROM outbox_events WHERE dispatched_at IS NULL AND ($2::text[] IS NULL OR type = ANY($2::text[]))
           ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED
         ), u AS (
           UPDATE outbox_events e SET dispatched_at = clock_timestamp() FROM c WHERE e.id = c.id
           RETURNING e.id, e.org_id, e.type, e.subject, e.payload, e.created_at
         )
         SELECT * FROM u ORDER BY id`,
        [limit, types ? [...types] : null],
      );
    return rows.map((r) => ({ id: String(r.id), orgId: r.org_id, type: r.type, subject: r.subject, payload: r.payload, createdAt: r.created_at }));
  }

  /** Deletes dispatched events older than `before`; returns how many. */
  async prune(manager: EntityManager, before: Date): Promise<number> {
    const rows = await manager.query(
      `WITH d AS (DELETE FROM outbox_events WHERE dispatched_at IS NOT NULL AND dispatched_at < $1 RETURNING 1) SELECT count(*)::int AS n FROM d`,
      [before],
    );
    return rows[0].n;
  }

  /** Makes `subscriber`'s subscriptions of org `orgId` exactly `types`; a change bumps the version. */
  async subscribe(manager: EntityManager, subscriber: string, orgId: string, types: readonly string[]): Promise<void> {
    await manager.query(
      `WITH gone AS (
         DELETE FROM outbox_subscriptions WHERE org_id = $1 AND subscriber = $2 AND NOT (event_type = ANY($3::text[])) RETURNING 1
       ), added AS (
         INSERT INTO outbox_subscriptions (org_id, event_type, subscriber)
         SELECT $1, t, $2 FROM unnest($3::text[]) AS t ON CONFLICT DO NOTHING RETURNING 1
       ), bumped AS (
         UPDATE outbox_subscription_version SET version = version + 1
         WHERE id = 1 AND (EXISTS (SELECT 1 FROM gone) OR EXISTS (SELECT 1 FROM added)) RETURNING version
       )
       SELECT (SELECT count(*) FROM bumped) AS bumped`,
      [orgId, subscriber, [...new Set(types)]],
    );
  }

  /** The version of the subscriptions, alone (cheap) or with every subscription (one consistent read). */
  async subscriptionVersion(manager: EntityManager): Promise<string> {
    const rows: Array<{ version: string }> = await manager.query(`SELECT version::text FROM outbox_subscription_version WHERE id = 1`);
    return rows[0].version;
  }

  async subscriptions(manager: EntityManager): Promise<SubscriptionRows> {
    const rows: Array<{ version: string; org_id: string | null; event_type: string | null }> = await manager.query(
      `SELECT v.version::text, s.org_id, s.event_type
       FROM outbox_subscription_version v LEFT JOIN (SELECT DISTINCT org_id, event_type FROM outbox_subscriptions) s ON true
       WHERE v.id = 1`,
    );
    return {
      version: rows[0].version,
      rows: rows.filter((r) => r.org_id !== null).map((r) => ({ org_id: r.org_id!, event_type: r.event_type! })),
    };
  }
}
