import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';

/** Owns `flow_renames`: every name a flow had, with who renamed it and when (its history). */
@Injectable()
export class FlowRenameRepository {
  constructor(private readonly dataSource: DataSource) {}

  async record(manager: EntityManager, orgId: string, flowId: string, oldName: string, newName: string, actor: string): Promise<void> {
    await manager.query(
      // The time the statement runs, not the transaction's start: the rename's time must follow every record
      // written before it took its locks (`flowNameAt` compares records' times with it).
      `INSERT INTO flow_renames (org_id, id, old_name, new_name, flow_id, renamed_by, renamed_at) VALUES ($1, $2, $3, $4, $5, $6, clock_timestamp())`,
      [orgId, randomUUID(), oldName, newName, flowId, actor],
    );
  }

  /** The current name of the flow that was last called `oldName` (renamed away from it), or null. */
  async currentName(orgId: string, oldName: string): Promise<string | null> {
    const rows: Array<{ name: string }> = await this.dataSource.query(
      `SELECT f.name FROM flow_renames r JOIN flows f ON f.id = r.flow_id AND f.org_id = r.org_id
       WHERE r.org_id = $1 AND r.old_name = $2 ORDER BY r.renamed_at DESC LIMIT 1`,
      [orgId, oldName],
    );
    return rows[0]?.name ?? null;
  }

  /** Like `currentName`, but null when something is called `oldName` now (it took the name back). */
  async renamedAway(orgId: string, oldName: string): Promise<string | null> {
    const rows: Array<{ name: string }> = await this.dataSource.query(
      `SELECT f.name FROM flow_renames r JOIN flows f ON f.id = r.flow_id AND f.org_id = r.org_id
       WHERE r.org_id = $1 AND r.old_name = $2 AND NOT EXISTS (SELECT 1 FROM flows n WHERE n.org_id = $1 AND n.name = $2)
       ORDER BY r.renamed_at DESC LIMIT 1`,
      [orgId, oldName],
    );
    return rows[0]?.name ?? null;
  }

  /**
   * Every name the flows called `names` have had: the flows with one of those names now or before, then each of
   * their current and former names (what text stored at the time, such as an event's flow names, may say).
   */
  async everyNameOf(orgId: string, names: readonly string[]): Promise<string[]> {
    if (!names.length) return [];
    const rows: Array<{ name: string }> = await this.dataSource.query(
      `WITH f AS (SELECT id FROM flows WHERE org_id = $1 AND name = ANY($2::text[])
                  UNION SELECT flow_id FROM flow_renames WHERE org_id = $1 AND old_name = ANY($2::text[]))
       SELECT name FROM flows WHERE org_id = $1 AND id IN (SELECT id FROM f)
       UNION SELECT old_name FROM flow_renames WHERE org_id = $1 AND flow_id IN (SELECT id FROM f)`,
      [orgId, names],
    );
    return rows.map((r) => r.name);
  }
}
