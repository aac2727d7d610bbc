import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface SonarWebhookRow {
  id: string;
  org_id: string;
  hook_uid: string;
  secret: string;
  flow_name_from: 'key' | 'name';
  flow_name_prefix: string;
  flow_name_suffix: string;
  created_by: string;
  created_at: number;
}

const COLUMNS = `id, org_id, hook_uid, secret, flow_name_from, flow_name_prefix, flow_name_suffix, created_by,
  EXTRACT(EPOCH FROM created_at)::float8 AS created_at`;

/** The one owner of `sonar_webhooks`. */
@Injectable()
export class SonarWebhookRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(row: Omit<SonarWebhookRow, 'created_at'>): Promise<SonarWebhookRow> {
    const [created]: SonarWebhookRow[] = await this.dataSource.query(
      `INSERT INTO sonar_webhooks (id, org_id, hook_uid, secret, flow_name_from, flow_name_prefix, flow_name_suffix, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
      [row.id, row.org_id, row.hook_uid, row.secret, row.flow_name_from, row.flow_name_prefix, row.flow_name_suffix, row.created_by],
    );
    return created;
  }

  list(orgId: string): Promise<SonarWebhookRow[]> {
    return this.dataSource.query(`SELECT ${COLUMNS} FROM sonar_webhooks WHERE org_id = $1 ORDER BY created_at, id`, [orgId]);
  }

  async delete(orgId: string, hookUid: string): Promise<boolean> {
    const [, count] = await this.dataSource.query(`DELETE FROM sonar_webhooks WHERE org_id = $1 AND hook_uid = $2`, [orgId, hookUid]);
    return count > 0;
  }

  /** The hook a SonarQube request names, whatever its org (the uid is what identifies the org). */
  async byUid(hookUid: string): Promise<(SonarWebhookRow & { org_name: string }) | null> {
    const rows = await this.dataSource.query(
      `SELECT w.id, w.org_id, w.hook_uid, w.secret, w.flow_name_from, w.flow_name_prefix, w.flow_name_suffix, w.created_by,
         EXTRACT(EPOCH FROM w.created_at)::float8 AS created_at, o.name AS org_name
       FROM sonar_webhooks w JOIN organizations o ON o.id = w.org_id WHERE w.hook_uid = $1`,
      [hookUid],
    );
    return rows[0] ?? null;
  }
}
