/** A notification target as stored (and as sent, but for the secret, which is never shown). */
export interface ActionTarget {
  /** A registered notification target type (`SLACK`, `WEBHOOK`, `EMAIL` built in; targets/ has the registry). */
  type: string;
  webhook?: string;
  /** WEBHOOK: HMAC-SHA256 key of X-Signature-256 */
  secret?: string;
  emails?: string[];
  payload_version?: string;
  /** SLACK: the channel of a chat-app integration, kept as sent */
  context?: { channel_id: string; channel_name: string; team_id: string } | null;
}

/** A target as responses show it: everything but the secret. */
export function publicTarget(target: ActionTarget): Omit<ActionTarget, 'secret'> {
  const { secret: _secret, ...shown } = target;
  return shown;
}
