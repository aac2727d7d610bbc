import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { KeyOwner } from './api-key.repository';

/** An API key as the list and get routes show it (never the key value, which is not stored). */
export interface ApiKeyRow {
  id: string;
  description: string;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
}

const COLUMNS = `k.id, k.description, EXTRACT(EPOCH FROM k.created_at)::float8 AS created_at,
  EXTRACT(EPOCH FROM k.expires_at)::float8 AS expires_at, EXTRACT(EPOCH FROM k.last_used_at)::float8 AS last_used_at`;

/** The live keys of an owner: neither revoked nor expired at `now` (the service's clock). */
@Injectable()
export class ApiKeyReader {
  constructor(private readonly dataSource: DataSource) {}

  list(owner: KeyOwner, now: Date): Promise<ApiKeyRow[]> {
    const [column, id] = 'serviceAccountId' in owner ? ['service_account_id', owner.serviceAccountId] : ['user_id', owner.userId];
    return this.dataSource.query(
      `SELECT ${COLUMNS} FROM api_keys k
       WHERE k.${column} = $1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > $2)
       ORDER BY k.created_at, k.id`,
      [id, now],
    );
  }

  async find(owner: KeyOwner, keyId: string, now: Date): Promise<ApiKeyRow | null> {
    const [column, id] = 'serviceAccountId' in owner ? ['service_account_id', owner.serviceAccountId] : ['user_id', owner.userId];
    const rows: ApiKeyRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM api_keys k
       WHERE k.id = $1 AND k.${column} = $2 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > $3)`,
      [keyId, id, now],
    );
    return rows[0] ?? null;
  }
}
