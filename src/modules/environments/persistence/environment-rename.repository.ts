import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';

/** Owns `environment_renames`: every name an environment had, with who renamed it and when (its history). */
@Injectable()
export class EnvironmentRenameRepository {
  constructor(private readonly dataSource: DataSource) {}

  async record(manager: EntityManager, orgId: string, environmentId: string, oldName: string, newName: string, actor: string): Promise<void> {
    await manager.query(
      `INSERT INTO environment_renames (org_id, id, old_name, new_name, environment_id, renamed_by) VALUES ($1, $2, $3, $4, $5, $6)`,
      [orgId, randomUUID(), oldName, newName, environmentId, actor],
    );
  }

  /** The current name of the environment that was last called `oldName` (renamed away from it), or null. */
  async currentName(orgId: string, oldName: string): Promise<string | null> {
    const rows: Array<{ name: string }> = await this.dataSource.query(
      `SELECT e.name FROM environment_renames r JOIN environments e ON e.id = r.environment_id AND e.org_id = r.org_id
       WHERE r.org_id = $1 AND r.old_name = $2 ORDER BY r.renamed_at DESC LIMIT 1`,
      [orgId, oldName],
    );
    return rows[0]?.name ?? null;
  }

  /** Like `currentName`, but null when something is called `oldName` now (it took the name back). */
  async renamedAway(orgId: string, oldName: string): Promise<string | null> {
    const rows: Array<{ name: string }> = await this.dataSource.query(
      `SELECT e.name FROM environment_renames r JOIN environments e ON e.id = r.environment_id AND e.org_id = r.org_id
       WHERE r.org_id = $1 AND r.old_name = $2 AND NOT EXISTS (SELECT 1 FROM environments n WHERE n.org_id = $1 AND n.name = $2)
       ORDER BY r.renamed_at DESC LIMIT 1`,
      [orgId, oldName],
    );
    return rows[0]?.name ?? null;
  }
}
