import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { CREDENTIALS_CHANNEL } from '../domain/credential-change';
import { generateApiKey } from '../domain/api-key-secret';
import { ApiKeyEntity } from './api-key.entity';

export interface IssuedApiKey {
  entity: ApiKeyEntity;
  /** The key value: returned to the caller once and never stored. */
  key: string;
}

export interface KeyOwnerRow {
  key_id: string;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  user_id: string | null;
  email: string | null;
  service_account_id: string | null;
  sa_name: string | null;
  sa_org_id: string | null;
  sa_role: string | null;
}

/** Whose keys: a service account's or a user's (personal keys). */
export type KeyOwner = { serviceAccountId: string; orgId: string } | { userId: string };

/** The key still works at `now` (a parameter: the service's clock decides expiry, as the verifier does). */
const live = (now: string) => `k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > ${now})`;

function ownerCondition(owner: KeyOwner, param: string): string {
  return 'serviceAccountId' in owner ? `k.service_account_id = ${param}` : `k.user_id = ${param}`;
}

function ownerId(owner: KeyOwner): string {
  return 'serviceAccountId' in owner ? owner.serviceAccountId : owner.userId;
}

/**
 * Owns `api_keys`. Every statement that can make a verified, cached key answer differently (revoke, rotate)
 * also sends `key:<id>` on the credentials channel, in the same statement, so every process drops it when the
 * change commits.
 */
@Injectable()
export class ApiKeyRepository {
  constructor(private readonly dataSource: DataSource) {}

  async issue(manager: EntityManager, owner: KeyOwner, description = '', expiresAt: Date | null = null, createdAt = new Date()): Promise<IssuedApiKey> {
    const { key, hash } = generateApiKey();
    const entity = manager.create(ApiKeyEntity, {
      id: randomUUID(),
      keyHash: hash,
      userId: 'userId' in owner ? owner.userId : null,
      serviceAccountId: 'serviceAccountId' in owner ? owner.serviceAccountId : null,
      serviceAccountOrgId: 'serviceAccountId' in owner ? owner.orgId : null,
      description,
      createdAt,
      expiresAt,
      lastUsedAt: null,
      revokedAt: null,
    });
    await manager.insert(ApiKeyEntity, entity);
    return { entity, key };
  }

  async findOwnerByHash(hash: Buffer): Promise<KeyOwnerRow | undefined> {
    const rows: KeyOwnerRow[] = await this.dataSource.query(
      `SELECT k.id AS key_id, k.expires_at, k.revoked_at, k.last_used_at,
              u.id AS user_id, u.email,
              sa.id AS service_account_id, sa.name AS sa_name, sa.org_id AS sa_org_id, sa.role AS sa_role
         FROM api_keys k
         LEFT JOIN users u ON u.id = k.user_id
         LEFT JOIN service_accounts sa ON sa.id = k.service_account_id
        WHERE k.key_hash = $1`,
      [hash],
    );
    return rows[0];
  }

  async touch(keyId: string): Promise<void> {
    await this.dataSource.query(`UPDATE api_keys SET last_used_at = now() WHERE id = $1`, [keyId]);
  }

  /** Locks a live key of this owner, or null (unknown, another owner's, revoked or expired). */
  async lockLive(
    manager: EntityManager,
    owner: KeyOwner,
    keyId: string,
    now: Date,
  ): Promise<{ id: string; description: string; expires_at: Date | null } | null> {
    const rows = await manager.query(
      `SELECT k.id, k.description, k.expires_at FROM api_keys k
       WHERE k.id = $1 AND ${ownerCondition(owner, '$2')} AND ${live('$3')} FOR UPDATE`,
      [keyId, ownerId(owner), now],
    );
    return rows[0] ?? null;
  }

  /**
   * Revokes a live key of this owner: its id as stored (canonical, lower case: the cached answers are keyed by
   * it), or null when there is none.
   */
  async revoke(manager: EntityManager, owner: KeyOwner, keyId: string, now: Date): Promise<string | null> {
    const rows = await manager.query(
      `WITH r AS (
         UPDATE api_keys k SET revoked_at = $4 WHERE k.id = $1 AND ${ownerCondition(owner, '$2')} AND ${live('$4')} RETURNING k.id
       )
       SELECT r.id, pg_notify($3, 'key:' || r.id) FROM r`,
      [keyId, ownerId(owner), CREDENTIALS_CHANNEL, now],
    );
    return rows[0]?.id ?? null;
  }

  /** A user's live personal keys' public metadata, oldest first (for credential events). */
  async liveOfUser(manager: EntityManager, userId: string, now: Date): Promise<Array<{ id: string; description: string; created_at: number; expires_at: number }>> {
    return manager.query(
      `SELECT k.id, k.description, EXTRACT(EPOCH FROM k.created_at)::float8 AS created_at,
              COALESCE(EXTRACT(EPOCH FROM k.expires_at)::float8, 0) AS expires_at
       FROM api_keys k WHERE k.user_id = $1 AND ${live('$2')} ORDER BY k.created_at, k.id`,
      [userId, now],
    );
  }

  /** A key's public metadata (Unix seconds; `expires_at` 0 = never), for a credential event. */
  async metadata(manager: EntityManager, keyId: string): Promise<{ id: string; description: string; created_at: number; expires_at: number }> {
    const rows = await manager.query(
      `SELECT id, description, EXTRACT(EPOCH FROM created_at)::float8 AS created_at,
              COALESCE(EXTRACT(EPOCH FROM expires_at)::float8, 0) AS expires_at FROM api_keys WHERE id = $1`,
      [keyId],
    );
    return rows[0];
  }

  /** Sets when a (locked) key stops working: the end of a rotated key's grace period. */
  async expireAt(manager: EntityManager, keyId: string, expiresAt: Date): Promise<void> {
    await manager.query(
      `WITH u AS (UPDATE api_keys SET expires_at = $2 WHERE id = $1 RETURNING id)
       SELECT pg_notify($3, 'key:' || u.id) FROM u`,
      [keyId, expiresAt, CREDENTIALS_CHANNEL],
    );
  }
}
