import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface LaunchDarklyWebhookRow {
  id: string;
  org_id: string;
  hook_uid: string;
  secret: string;
  flow_name: string;
  trail_name: string;
  app_url: string;
  created_by: string;
  created_at: number;
}

const COLUMNS = `id, org_id, hook_uid, secret, flow_name, trail_name, app_url, created_by, EXTRACT(EPOCH FROM created_at)::float8 AS created_at`;

/** The one owner of `launch_darkly_webhooks`. */
@Injectable()
export class LaunchDarklyWebhookRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(row: Omit<LaunchDarklyWebhookRow, 'created_at'>): Promise<LaunchDarklyWebhookRow> {
    const [created]: LaunchDarklyWebhookRow[] = await this.dataSource.query(
      `INSERT INTO launch_darkly_webhooks (id, org_id, hook_uid, secret, flow_name, trail_name, app_url, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
      [row.id, row.org_id, row.hook_uid, row.secret, row.flow_name, row.trail_name, row.app_url, row.created_by],
    );
    return created;
  }

  list(orgId: string): Promise<LaunchDarklyWebhookRow[]> {
    return this.dataSource.query(`SELECT ${COLUMNS} FROM launch_darkly_webhooks WHERE org_id = $1 ORDER BY created_at, id`, [orgId]);
  }

  async delete(orgId: string, hookUid: string): Promise<boolean> {
    const [, count] = await this.dataSource.query(`DELETE FROM launch_darkly_webhooks WHERE org_id = $1 AND hook_uid = $2`, [orgId, hookUid]);
    return count > 0;
  }

  /** The hook a LaunchDarkly request names, whatever its org (the uid is what identifies the org). */
  async byUid(hookUid: string): Promise<LaunchDarklyWebhookRow | null> {
    const rows = await this.dataSource.query(`SELECT ${COLUMNS} FROM launch_darkly_webhooks WHERE hook_uid = $1`, [hookUid]);
    return rows[0] ?? null;
  }
}
