import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** A service account as the routes show it. */
export interface ServiceAccountRow {
  id: string;
  name: string;
  description: string;
  role: string;
  created_by: string;
  created_at: number;
}

const COLUMNS = `id, name, description, role, created_by, EXTRACT(EPOCH FROM created_at)::float8 AS created_at`;

@Injectable()
export class ServiceAccountReader {
  constructor(private readonly dataSource: DataSource) {}

  list(orgId: string): Promise<ServiceAccountRow[]> {
    return this.dataSource.query(`SELECT ${COLUMNS} FROM service_accounts WHERE org_id = $1 ORDER BY name`, [orgId]);
  }

  async find(orgId: string, name: string): Promise<ServiceAccountRow | null> {
    const rows: ServiceAccountRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM service_accounts WHERE org_id = $1 AND name = $2`, [
      orgId,
      name,
    ]);
    return rows[0] ?? null;
  }
}
