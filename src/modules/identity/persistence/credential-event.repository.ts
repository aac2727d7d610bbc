import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { CredentialEventResponse } from '../dto/credential-event.response';

/** Owns `credential_events` (append-only). */
@Injectable()
export class CredentialEventRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Stores the event and answers it as read back (what the read route answers). */
  async insert(manager: EntityManager, orgId: string, record: CredentialEventResponse, recordedAt: Date): Promise<CredentialEventResponse> {
    const rows: Array<{ record: CredentialEventResponse }> = await manager.query(
      `INSERT INTO credential_events (org_id, id, record, recorded_at) VALUES ($1, $2, $3, $4) RETURNING record`,
      [orgId, record.id, JSON.stringify(record), recordedAt],
    );
    return rows[0].record;
  }

  async find(orgId: string, id: string): Promise<CredentialEventResponse | null> {
    const rows: Array<{ record: CredentialEventResponse }> = await this.dataSource.query(
      `SELECT record FROM credential_events WHERE org_id = $1 AND id = $2`,
      [orgId, id],
    );
    return rows[0]?.record ?? null;
  }
}
