import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

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

/** Owns `outbox_events`. */
@Injectable()
export class OutboxEventRepository {
  /** Appends events in the caller's transaction: they exist if and only if it commits. */
  async append(manager: EntityManager, events: OutboxEvent[]): Promise<void> {
    if (!events.length) return;
    await manager.query(
      `INSERT INTO outbox_events (org_id, type, subject, payload)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::jsonb[], $4::jsonb[])`,
      [events.map((e) => e.orgId), events.map((e) => e.type), events.map((e) => JSON.stringify(e.subject)), events.map((e) => JSON.stringify(e.payload))],
    );
  }

  /**
   * Takes up to `limit` undispatched events, oldest first, and marks them dispatched, in the caller's
   * transaction (rows another transaction is taking are skipped). If that transaction rolls back, they are
   * pending again.
   */
  async claim(manager: EntityManager, limit: number): Promise<StoredOutboxEvent[]> {
    const rows: Array<{ id: string; org_id: string; type: string; subject: Record<string, unknown>; payload: Record<string, unknown>; created_at: Date }> =
      await manager.query(
        // (a top-level SELECT: TypeORM answers a top-level UPDATE with [rows, count])
        `WITH c AS (
           SELECT id FROM outbox_events WHERE dispatched_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED
         ), u AS (
           UPDATE outbox_events e SET dispatched_at = clock_timestamp() FROM c WHERE e.id = c.id
           RETURNING e.id, e.org_id, e.type, e.subject, e.payload, e.created_at
         )
         SELECT * FROM u ORDER BY id`,
        [limit],
      );
    return rows.map((r) => ({ id: String(r.id), orgId: r.org_id, type: r.type, subject: r.subject, payload: r.payload, createdAt: r.created_at }));
  }
}
