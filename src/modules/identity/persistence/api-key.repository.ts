import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
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

@Injectable()
export class ApiKeyRepository {
  constructor(private readonly dataSource: DataSource) {}

  async issue(
    manager: EntityManager,
    owner: { userId: string } | { serviceAccountId: string },
    description = '',
    expiresAt: Date | null = null,
  ): Promise<IssuedApiKey> {
    const { key, hash } = generateApiKey();
    const entity = manager.create(ApiKeyEntity, {
      id: randomUUID(),
      keyHash: hash,
      userId: 'userId' in owner ? owner.userId : null,
      serviceAccountId: 'serviceAccountId' in owner ? owner.serviceAccountId : null,
      description,
      createdAt: new Date(),
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
}
