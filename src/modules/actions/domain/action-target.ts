/** A notification target as stored (and as sent, but for the secret, which is never shown). */
export interface ActionTarget {
  type: 'SLACK' | 'WEBHOOK' | 'EMAIL';
  webhook?: string;
  /** WEBHOOK: HMAC-SHA256 key of X-Signature-256 */
  secret?: string;
  emails?: string[];
  payload_version?: string;
  /** SLACK: the channel of a chat-app integration, kept as sent */
  context?: { channel_id: string; channel_name: string; team_id: string } | null;
}

export const TARGET_TYPES = ['SLACK', 'WEBHOOK', 'EMAIL'] as const;

/** A target as responses show it: everything but the secret. */
export function publicTarget(target: ActionTarget): Omit<ActionTarget, 'secret'> {
  const { secret: _secret, ...shown } = target;
  return shown;
}

/** Which deliveries share a receiver (for per-receiver concurrency limits). */
export function receiverKey(target: ActionTarget): string {
  return target.type === 'EMAIL' ? `email:${[...(target.emails ?? [])].sort().join(',')}` : `url:${target.webhook ?? ''}`;
}
