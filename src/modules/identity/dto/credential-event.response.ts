/** A key's public metadata in a credential event: never its value. Times are Unix seconds, 0 = never. */
export interface CredentialEventKey {
  id: string;
  description: string;
  created_at: number;
  expires_at: number;
}

export type CredentialEventType =
  | 'service_account_created'
  | 'service_account_changed'
  | 'service_account_deleted'
  | 'api_key_created'
  | 'api_key_rotated'
  | 'api_key_revoked'
  /** A user's personal key made before the user joined this org, which acts in it from the join on. */
  | 'api_key_admitted';

/**
 * One change of who may write in an org, as `GET /credential-events/{org}/{event_id}` shows it; never changes
 * once written (the evidence log's `credential_event` entries hash it).
 */
export interface CredentialEventResponse {
  id: string;
  type: CredentialEventType;
  /** The service account concerned (its name), or null for a user's personal key. */
  service_account: string | null;
  /** The user whose personal key it is (as principals are named), or null. */
  user: string | null;
  /** Service account events: its privilege and description after the change (null once deleted). */
  privilege: string | null;
  description: string | null;
  /** Key events: the key created (for a rotation, the new one), or the key revoked. */
  key: CredentialEventKey | null;
  /** A rotation: the key replaced, and when it stops working (Unix seconds). */
  replaced_key: { id: string; expires_at: number } | null;
  actor: string;
  /** Unix seconds */
  recorded_at: number;
}
