import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';

export interface FlowRef {
  id: string;
  templateId: string | null;
}

/** Fields of a flow a client may change (create-or-update); undefined leaves the column as it is. */
export interface FlowFieldChanges {
  description?: string;
  visibility?: string;
  /** null or '' clears it. */
  repoUrl?: string | null;
}

/** Owns the `flows` table: every write to it is here. */
@Injectable()
export class FlowRepository {
  /**
   * Finds or creates a flow (no template); race-safe through the (org_id, name) unique key. A name some flow was
   * renamed away from is created only when `mayTakeOldName` (an explicit create): evidence sent to an old name
   * finds nothing (null), which the route answers with a redirect to the flow's new name; the caller must then
   * fail its transaction (a flow this call inserted under a name renamed away concurrently is still in it).
   */
  async ensure(manager: EntityManager, orgId: string, name: string, actor: string, mayTakeOldName = false): Promise<(FlowRef & { created: boolean }) | null> {
    const inserted: Array<{ id: string }> = await manager.query(
      `INSERT INTO flows (id, org_id, name, created_by)
       SELECT $1, $2, $3, $4 WHERE $5 OR NOT EXISTS (SELECT 1 FROM flow_renames WHERE org_id = $2 AND old_name = $3)
       ON CONFLICT (org_id, name) DO NOTHING RETURNING id`,
      [randomUUID(), orgId, name, actor, mayTakeOldName],
    );
    if (inserted.length) {
      // The check above reads the statement's snapshot: a rename away from `name` that was in progress made the
      // insert wait on the unique key and then go ahead once it committed. A new statement sees that rename;
      // the caller's transaction is then to fail (null: 404, answered with the redirect), taking the row back.
      if (!mayTakeOldName && (await this.renamedAwayFrom(manager, orgId, name))) return null;
      return { id: inserted[0].id, templateId: null, created: true };
    }
    const found = await this.findByName(manager, orgId, name);
    return found ? { ...found, created: false } : null;
  }

  private async renamedAwayFrom(manager: EntityManager, orgId: string, name: string): Promise<boolean> {
    const rows: unknown[] = await manager.query(`SELECT 1 FROM flow_renames WHERE org_id = $1 AND old_name = $2 LIMIT 1`, [orgId, name]);
    return rows.length > 0;
  }

  /**
   * Archives a flow (once: archiving it again changes nothing); false when there is no such flow. The row is
   * taken FOR UPDATE first: that waits for every write in flight into the flow (the archived-flow trigger holds
   * it FOR KEY SHARE until the writer commits, see LockFlowsAgainstArchive) and makes later writers wait for
   * the archive and then see it. The archive takes nothing else, so it cannot close a lock cycle with them.
   */
  async archive(manager: EntityManager, orgId: string, name: string, actor: string): Promise<boolean> {
    const locked: Array<{ id: string }> = await manager.query(`SELECT id FROM flows WHERE org_id = $1 AND name = $2 FOR UPDATE`, [orgId, name]);
    if (!locked.length) return false;
    await manager.query(
      `UPDATE flows SET archived_at = COALESCE(archived_at, clock_timestamp()), archived_by = COALESCE(archived_by, $2) WHERE id = $1`,
      [locked[0].id, actor],
    );
    return true;
  }

  /**
   * Renames a flow; the (org_id, name) key refuses a name in use (23505: the caller checks first, for the
   * message, and maps the violation of a name taken concurrently to the same 409).
   */
  async rename(manager: EntityManager, flowId: string, newName: string): Promise<void> {
    await manager.query(`UPDATE flows SET name = $2, updated_at = now() WHERE id = $1`, [flowId, newName]);
  }

  async findByName(manager: EntityManager, orgId: string, name: string): Promise<FlowRef | null> {
    const rows: Array<{ id: string; template_id: string | null }> = await manager.query(
      `SELECT id, template_id FROM flows WHERE org_id = $1 AND name = $2`,
      [orgId, name],
    );
    return rows.length ? { id: rows[0].id, templateId: rows[0].template_id } : null;
  }

  /**
   * Takes the flow row (FOR NO KEY UPDATE: trails and templates referencing it can still be inserted) and
   * returns its current template. Every writer takes it after any trail lock it holds.
   */
  async lock(manager: EntityManager, flowId: string): Promise<FlowRef> {
    const rows: Array<{ id: string; template_id: string | null }> = await manager.query(
      `SELECT id, template_id FROM flows WHERE id = $1 FOR NO KEY UPDATE`,
      [flowId],
    );
    if (!rows.length) throw new Error(`flow ${flowId} not found while locking it`);
    return { id: rows[0].id, templateId: rows[0].template_id };
  }

  async update(manager: EntityManager, flowId: string, changes: FlowFieldChanges): Promise<void> {
    const sets: string[] = [];
    const params: unknown[] = [flowId];
    const set = (column: string, value: unknown) => {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    if (changes.description != null) set('description', changes.description);
    if (changes.visibility != null) set('visibility', changes.visibility);
    if (changes.repoUrl !== undefined) set('repo_url', changes.repoUrl || null);
    if (!sets.length) return;
    await manager.query(`UPDATE flows SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, params);
  }

  /**
   * Takes the flow called `name` now (FOR NO KEY UPDATE, like `lock`), or null: after waiting for a rename of
   * it, the row is re-read and no longer matches its old name.
   */
  async lockByName(manager: EntityManager, orgId: string, name: string): Promise<FlowRef | null> {
    const rows: Array<{ id: string; template_id: string | null }> = await manager.query(
      `SELECT id, template_id FROM flows WHERE org_id = $1 AND name = $2 FOR NO KEY UPDATE`,
      [orgId, name],
    );
    return rows.length ? { id: rows[0].id, templateId: rows[0].template_id } : null;
  }

  /** Takes the flow row and returns its id and tags (for a tag update). */
  async lockTags(manager: EntityManager, orgId: string, name: string): Promise<{ id: string; tags: Record<string, string> } | null> {
    const rows: Array<{ id: string; tags: Record<string, string> }> = await manager.query(
      `SELECT id, tags FROM flows WHERE org_id = $1 AND name = $2 FOR NO KEY UPDATE`,
      [orgId, name],
    );
    return rows[0] ?? null;
  }

  async setTags(manager: EntityManager, flowId: string, tags: Record<string, string>): Promise<void> {
    await manager.query(`UPDATE flows SET tags = $2, updated_at = now() WHERE id = $1`, [flowId, JSON.stringify(tags)]);
  }

  async setTemplate(manager: EntityManager, flowId: string, templateId: string): Promise<void> {
    await manager.query(`UPDATE flows SET template_id = $2, updated_at = now() WHERE id = $1`, [flowId, templateId]);
  }
}
