import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { ActionTarget } from '../domain/action-target';
import { DeliveryEvent } from '../domain/notification';

export interface NewDelivery {
  id: string;
  orgId: string;
  actionId: string;
  targetIndex: number;
  trigger: string;
  event: DeliveryEvent;
}

/** A delivery taken for an attempt, with what sending it needs. */
export interface LeasedDelivery {
  id: string;
  org_id: string;
  action_id: string;
  target_index: number;
  trigger: string;
  event: DeliveryEvent;
  attempts: number;
  /** this attempt's hold on the delivery: recording the attempt or giving the lease back needs it */
  lease_token: string;
  action_number: number;
  action_name: string;
  action_type: string;
  action_deleted: boolean;
  target: ActionTarget | null;
}

export interface AttemptRecord {
  deliveryId: string;
  leaseToken: string;
  orgId: string;
  actionId: string;
  attempt: number;
  succeeded: boolean;
  statusCode: number | null;
  error: string | null;
  startedAt: Date;
  durationMs: number;
  /** the delivery's state after this attempt */
  status: 'pending' | 'delivered' | 'dead';
}

/** Owns `action_deliveries` and `action_delivery_attempts`. */
@Injectable()
export class DeliveryRepository {
  async insertMany(manager: EntityManager, deliveries: NewDelivery[]): Promise<void> {
    if (!deliveries.length) return;
    await manager.query(
      `INSERT INTO action_deliveries (id, org_id, action_id, target_index, trigger, event)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::int[], $5::text[], $6::jsonb[])`,
      [
        deliveries.map((d) => d.id),
        deliveries.map((d) => d.orgId),
        deliveries.map((d) => d.actionId),
        deliveries.map((d) => d.targetIndex),
        deliveries.map((d) => d.trigger),
        deliveries.map((d) => JSON.stringify(d.event)),
      ],
    );
  }

  /**
   * Takes a pending delivery for one attempt for `leaseMs` (autocommit: the lease is what keeps two processes
   * from sending it at once; leases are in the database's time, the one clock all processes share). Null when
   * it is not pending or another attempt holds it. The lease carries a new token: what the attempt writes
   * afterwards applies only while the delivery still holds that token, so an attempt that outlived its lease
   * (another took the delivery meanwhile) writes nothing.
   */
  async lease(manager: EntityManager, id: string, leaseMs: number): Promise<LeasedDelivery | null> {
    const rows: LeasedDelivery[] = await manager.query(
      `WITH l AS (
         UPDATE action_deliveries d SET lease_until = clock_timestamp() + $2 * interval '1 millisecond', lease_token = $3,
           updated_at = clock_timestamp()
         WHERE d.id = $1 AND d.status = 'pending' AND (d.lease_until IS NULL OR d.lease_until < clock_timestamp())
         RETURNING d.id, d.org_id, d.action_id, d.target_index, d.trigger, d.event, d.attempts, d.lease_token
       )
       SELECT l.*, a.number AS action_number, a.name AS action_name, a.type AS action_type,
         a.deleted_at IS NOT NULL AS action_deleted, a.targets -> l.target_index AS target
       FROM l JOIN actions a ON a.id = l.action_id`,
      [id, leaseMs, randomUUID()],
    );
    return rows[0] ?? null;
  }

  /** Gives a lease back without an attempt (nothing when the lease is no longer this attempt's). */
  async releaseLease(manager: EntityManager, id: string, leaseToken: string): Promise<void> {
    await manager.query(`UPDATE action_deliveries SET lease_until = NULL, lease_token = NULL WHERE id = $1 AND lease_token = $2`, [id, leaseToken]);
  }

  /** The state of a delivery that could not be leased: gone, finished, or in flight elsewhere. */
  async state(manager: EntityManager, id: string): Promise<'missing' | 'finished' | 'in_flight'> {
    const rows: Array<{ status: string }> = await manager.query(`SELECT status FROM action_deliveries WHERE id = $1`, [id]);
    if (!rows.length) return 'missing';
    return rows[0].status === 'pending' ? 'in_flight' : 'finished';
  }

  /**
   * Records an attempt and the delivery's new state, and releases the lease; false (and nothing written) when the
   * delivery no longer holds this attempt's lease token: the lease ran out and another attempt took it.
   */
  async recordAttempt(manager: EntityManager, a: AttemptRecord): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `WITH upd AS (
         UPDATE action_deliveries SET attempts = $4::int, status = $10::text, last_error = $7::text, lease_until = NULL, lease_token = NULL,
           updated_at = clock_timestamp(), completed_at = CASE WHEN $10::text = 'pending' THEN NULL ELSE clock_timestamp() END
         WHERE id = $1::uuid AND lease_token = $11::uuid
         RETURNING id
       )
       INSERT INTO action_delivery_attempts (org_id, action_id, delivery_id, attempt, succeeded, status_code, error, started_at, duration_ms)
       SELECT $2::uuid, $3::uuid, upd.id, $4::int, $5::boolean, $6::int, $7::text, $8::timestamptz, $9::int FROM upd
       RETURNING 1`,
      [a.deliveryId, a.orgId, a.actionId, a.attempt, a.succeeded, a.statusCode, a.error, a.startedAt, a.durationMs, a.status, a.leaseToken],
    );
    return rows.length === 1;
  }

  /** Gives up a delivery without an attempt (its action was deleted), while this attempt holds its lease. */
  async abandon(manager: EntityManager, id: string, leaseToken: string, reason: string): Promise<void> {
    await manager.query(
      `UPDATE action_deliveries SET status = 'dead', last_error = $2, lease_until = NULL, lease_token = NULL,
         updated_at = clock_timestamp(), completed_at = clock_timestamp()
       WHERE id = $1 AND lease_token = $3`,
      [id, reason, leaseToken],
    );
  }

  /**
   * Pending deliveries nobody has touched for `staleMs` (their job was lost: retries used up while they were in
   * flight elsewhere, or a queue cleared by hand): touched now, so they are picked once; returns their ids.
   */
  async reviveStale(manager: EntityManager, staleMs: number, limit: number): Promise<string[]> {
    const rows: Array<{ id: string }> = await manager.query(
      `WITH s AS (
         SELECT id FROM action_deliveries
         WHERE status = 'pending' AND updated_at < clock_timestamp() - $1 * interval '1 millisecond'
           AND (lease_until IS NULL OR lease_until < clock_timestamp())
         ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED
       ), u AS (
         UPDATE action_deliveries d SET updated_at = clock_timestamp() FROM s WHERE d.id = s.id RETURNING d.id
       )
       SELECT id FROM u`,
      [staleMs, limit],
    );
    return rows.map((r) => r.id);
  }

  /** Deletes finished deliveries (with their attempts) completed more than `ageMs` ago. */
  async prune(manager: EntityManager, ageMs: number): Promise<number> {
    const rows = await manager.query(
      `WITH d AS (
         DELETE FROM action_deliveries WHERE status <> 'pending' AND completed_at < clock_timestamp() - $1 * interval '1 millisecond' RETURNING 1
       )
       SELECT count(*)::int AS n FROM d`,
      [ageMs],
    );
    return rows[0].n;
  }
}
