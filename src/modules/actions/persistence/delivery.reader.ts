import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** One attempt with its delivery, newest first, as `GET /actions/{org}/{number}/deliveries` shows it. */
export interface AttemptRow {
  delivery_id: string;
  event_id: string;
  event_type: string;
  trigger: string;
  target_index: number;
  target_type: string;
  attempt: number;
  succeeded: boolean;
  status_code: number | null;
  error: string | null;
  attempted_at: number;
  duration_ms: number;
  delivery_status: string;
  delivery_attempts: number;
}

@Injectable()
export class DeliveryReader {
  constructor(private readonly dataSource: DataSource) {}

  recentAttempts(orgId: string, actionId: string, limit: number): Promise<AttemptRow[]> {
    return this.dataSource.query(
      `SELECT t.delivery_id, d.event->>'id' AS event_id, d.event->>'type' AS event_type, d.trigger, d.target_index,
         a.targets -> d.target_index ->> 'type' AS target_type, t.attempt, t.succeeded, t.status_code, t.error,
         EXTRACT(EPOCH FROM t.started_at)::float8 AS attempted_at, t.duration_ms, d.status AS delivery_status,
         d.attempts AS delivery_attempts
       FROM action_delivery_attempts t
       JOIN action_deliveries d ON d.id = t.delivery_id
       JOIN actions a ON a.id = t.action_id
       WHERE t.org_id = $1 AND t.action_id = $2
       ORDER BY t.id DESC LIMIT $3`,
      [orgId, actionId, limit],
    );
  }
}
