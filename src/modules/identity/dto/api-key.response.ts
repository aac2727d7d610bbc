import { epochSecondsOrZero } from '../domain/key-lifetime';
import { ApiKeyRow } from '../persistence/api-key.reader';
import { IssuedApiKey } from '../persistence/api-key.repository';

/** The answer to create and rotate: the only time the key value is shown. `expires_at` 0 means never. */
export interface CreatedApiKeyResponse {
  id: string;
  key: string;
  description: string;
  created_at: number;
  expires_at: number;
  /** rotate only: when the key it replaces stops working */
  grace_period_expires_at?: number;
}

/** A key in a list or get: never its value. `last_used_at` is null until the key is first used. */
export interface ApiKeyResponse {
  id: string;
  description: string;
  created_at: number;
  expires_at: number;
  last_used_at: number | null;
}

export function toCreatedApiKeyResponse(issued: IssuedApiKey): CreatedApiKeyResponse {
  return {
    id: issued.entity.id,
    key: issued.key,
    description: issued.entity.description,
    created_at: issued.entity.createdAt.getTime() / 1000,
    expires_at: epochSecondsOrZero(issued.entity.expiresAt),
  };
}

export function toApiKeyResponse(row: ApiKeyRow): ApiKeyResponse {
  return {
    id: row.id,
    description: row.description,
    created_at: Number(row.created_at),
    expires_at: row.expires_at === null ? 0 : Number(row.expires_at),
    last_used_at: row.last_used_at === null ? null : Number(row.last_used_at),
  };
}
