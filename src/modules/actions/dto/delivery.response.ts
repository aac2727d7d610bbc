import { AttemptRow } from '../persistence/delivery.reader';

/** One delivery attempt, newest first: what was sent where, and how it went. */
export interface DeliveryAttemptResponse {
  /** the idempotency id receivers see (the same on every attempt of a delivery) */
  delivery_id: string;
  event_id: string;
  event_type: string;
  trigger: string;
  target: { index: number; type: string | null };
  attempt: number;
  status: 'succeeded' | 'failed';
  status_code: number | null;
  error: string | null;
  attempted_at: number;
  duration_ms: number;
  /** where the delivery stands now: pending (more attempts to come), delivered, or dead (dead-lettered) */
  delivery_status: string;
  delivery_attempts: number;
}

export function toDeliveryAttemptResponse(row: AttemptRow): DeliveryAttemptResponse {
  return {
    delivery_id: row.delivery_id,
    event_id: row.event_id,
    event_type: row.event_type,
    trigger: row.trigger,
    target: { index: row.target_index, type: row.target_type },
    attempt: row.attempt,
    status: row.succeeded ? 'succeeded' : 'failed',
    status_code: row.status_code,
    error: row.error,
    attempted_at: Number(row.attempted_at),
    duration_ms: row.duration_ms,
    delivery_status: row.delivery_status,
    delivery_attempts: row.delivery_attempts,
  };
}
