/**
 * Cross-process cache invalidation of verified API keys. Every change that can make a cached key answer wrong
 * (revoked, rotated, its service account re-privileged or deleted) sends one notification on this channel in
 * the transaction that makes the change; every process (PgNotifications) then drops the matching entries.
 * Payloads: `key:<api key id>`, `service_account:<id>`, `user:<id>`.
 */
export const CREDENTIALS_CHANNEL = 'veritrail_credentials';

export type CredentialChange =
  | { kind: 'key'; id: string }
  | { kind: 'service_account'; id: string }
  | { kind: 'user'; id: string };

export function encodeCredentialChange(change: CredentialChange): string {
  return `${change.kind}:${change.id}`;
}

export function decodeCredentialChange(payload: string): CredentialChange | null {
  const at = payload.indexOf(':');
  const kind = payload.slice(0, at);
  const id = payload.slice(at + 1);
  if (at < 0 || !id) return null;
  return kind === 'key' || kind === 'service_account' || kind === 'user' ? { kind, id } : null;
}
