import type { ActionTarget } from '../domain/action-target';
import type { DeliveryContext } from '../domain/notification';

/** The target fields of an action's request (`ActionTargetDto`); a type says which of them it takes. */
export type TargetFieldName = 'webhook' | 'secret' | 'emails' | 'payload_version' | 'context';

/** What one attempt can send with: the service's HTTP client (with its SSRF guard) and its mailer. */
export interface TargetIo {
  post(url: string, body: Buffer, headers: Record<string, string>, timeoutMs: number): Promise<TargetSendResult>;
  mail(to: string[], message: { subject: string; text: string }, headers: Record<string, string>, timeoutMs: number): Promise<TargetSendResult>;
}

/** `permanent`: the receiver refused for good (no retry). */
export interface TargetSendResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  permanent?: boolean;
}

/** One notification to send: what happened, and the headers every notification carries. */
export interface OutgoingNotification {
  ctx: DeliveryContext;
  /** User-Agent, X-Veritrail-Event, X-Veritrail-Delivery, Idempotency-Key, X-Veritrail-Timestamp. */
  headers: Record<string, string>;
  timeoutMs: number;
}

/**
 * A notification target type, as plain data (no Nest): its name, the request fields it takes, and how it sends.
 * Registered with `NotificationTargetModule.register(definition)` (or by the actions module, for its built-ins).
 */
export interface NotificationTargetDefinition {
  /** `WEBHOOK`, `SLACK` ...: the `type` of a target object. */
  type: string;
  /** The fields it takes, each required or optional; any other field of a target of this type is refused. */
  fields: Readonly<Partial<Record<TargetFieldName, 'required' | 'optional'>>>;
  /** Values filled in when the request leaves them out (the stored target shows them). */
  defaults?: Readonly<Partial<ActionTarget>>;
  /** Deliveries with the same key share a receiver (per-receiver concurrency limits). */
  receiverKey(target: ActionTarget): string;
  send(target: ActionTarget, notification: OutgoingNotification, io: TargetIo): Promise<TargetSendResult>;
}
