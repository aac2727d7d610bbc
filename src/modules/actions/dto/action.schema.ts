import { arrayOf, boolean, describe, integer, mapOf, nullable, object, oneOf, string, timestamp, anyJson } from '../../../common/openapi/response-schema';

/** ActionResponse (action.response.ts): webhook secrets are never shown. */
export const ACTION_SCHEMA = object({
  name: string,
  type: string,
  number: integer,
  targets: arrayOf(mapOf(anyJson)),
  triggers: arrayOf(string),
  created_by: string,
  is_created_from_chat_app: boolean,
  is_created_from_slack_app: boolean,
  last_modified_at: timestamp,
  is_failing: boolean,
  last_success_timestamp: nullable(timestamp),
  last_failure_timestamp: nullable(timestamp),
  created_at: timestamp,
  flows: arrayOf(string),
  environments: arrayOf(string),
});

/** DeliveryAttemptResponse (delivery.response.ts), newest first. */
export const DELIVERY_ATTEMPT_SCHEMA = object({
  delivery_id: describe(string, 'The idempotency id receivers see, the same on every attempt'),
  event_id: string,
  event_type: string,
  trigger: string,
  target: object({ index: integer, type: nullable(string) }),
  attempt: integer,
  status: oneOf('succeeded', 'failed'),
  status_code: nullable(integer),
  error: nullable(string),
  attempted_at: timestamp,
  duration_ms: { type: 'number' },
  delivery_status: describe(string, 'pending, delivered or dead'),
  delivery_attempts: integer,
});
