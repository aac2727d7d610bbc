import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import type { Role } from '../../../common/auth/principal';
import { CREDENTIALS_CHANNEL } from '../../identity/identity.module';

export interface ServiceAccountRecord {
  id: string;
  org_id: string;
  name: string;
  description: string;
  role: Role;
  created_by: string;
  /** Unix seconds */
  created_at: number;
}

const RETURNED = `id, org_id, name, description, role, created_by, EXTRACT(EPOCH FROM created_at)::float8 AS created_at`;

/**
 * Owns `service_accounts`. A change to an account's role, or its deletion (which deletes its keys with it),
 * sends `service_account:<id>` on the credentials channel in the same statement, so that no process keeps
 * serving a cached principal with the old role, or at all.
 */
@Injectable()
export class ServiceAccountRepository {
  /** Creates the account; null when the org already has one of that name. */
  async insert(
    manager: EntityManager,
    account: { orgId: string; name: string; description: string; role: Role; createdBy: string },
  ): Promise<ServiceAccountRecord | null> {
    const rows: ServiceAccountRecord[] = await manager.query(
      `INSERT INTO service_accounts (id, org_id, name, description, role, created_by, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, now())
       ON CONFLICT (org_id, name) DO NOTHING
       RETURNING ${RETURNED}`,
      [randomUUID(), account.orgId, account.name, account.description, account.role, account.createdBy],
    );
    return rows[0] ?? null;
  }

  /** The account, locked for the rest of the transaction, or null. */
  async lock(manager: EntityManager, orgId: string, name: string): Promise<ServiceAccountRecord | null> {
    const rows: ServiceAccountRecord[] = await manager.query(
      `SELECT ${RETURNED} FROM service_accounts
       WHERE org_id = $1 AND name = $2 FOR UPDATE`,
      [orgId, name],
    );
    return rows[0] ?? null;
  }

  /** Sets the fields given; a changed role also drops the account's cached keys in every process. */
  async update(manager: EntityManager, current: ServiceAccountRecord, changes: { description?: string; role?: Role }): Promise<ServiceAccountRecord> {
    const rows: ServiceAccountRecord[] = await manager.query(
      `WITH u AS (
         UPDATE service_accounts SET description = COALESCE($2, description), role = COALESCE($3, role) WHERE id = $1
         RETURNING ${RETURNED}
       )
       SELECT * FROM u`,
      [current.id, changes.description ?? null, changes.role ?? null],
    );
    if (changes.role !== undefined && changes.role !== current.role) {
      await manager.query(`SELECT pg_notify($1, 'service_account:' || $2::text)`, [CREDENTIALS_CHANNEL, current.id]);
    }
    return rows[0];
  }

  /** Deletes the account and, by the foreign key, its API keys. */
  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.query(
      `WITH d AS (DELETE FROM service_accounts WHERE id = $1 RETURNING id)
       SELECT pg_notify($2, 'service_account:' || d.id) FROM d`,
      [id, CREDENTIALS_CHANNEL],
    );
  }
}
