import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';

/** An environment row with what the write paths decide on. */
export interface EnvironmentRecord {
  id: string;
  name: string;
  type: string;
  include_scaling: boolean;
  require_provenance: boolean;
  tags: Record<string, string>;
  /** Archived environments take no reports. */
  archived_at: Date | null;
  last_snapshot: number;
  set_hash: Buffer | null;
  scale_hash: Buffer | null;
  compliant: boolean | null;
}

export interface NewEnvironment {
  orgId: string;
  name: string;
  type: string;
  description: string;
  includeScaling: boolean;
  requireProvenance: boolean;
  actor: string;
}

/** Fields a create-or-update may change; undefined leaves the column as it is. */
export interface EnvironmentChanges {
  description?: string;
  includeScaling?: boolean;
  requireProvenance?: boolean;
}

export interface SnapshotTaken {
  number: number;
  /** Unix seconds, the snapshot's `created_at`. */
  createdAt: number;
  setHash: Buffer;
  scaleHash: Buffer;
  compliant: boolean;
}

const COLUMNS = 'id, name, type, include_scaling, require_provenance, tags, last_snapshot, set_hash, scale_hash, compliant, archived_at';

/** An unchanged report refreshes `last_reported_at` at most this often, so that it writes (almost) nothing. */
export const REPORTED_AT_RESOLUTION_SECONDS = 60;

/** Owns `environments` and `environment_members`: every write to them is here. */
@Injectable()
export class EnvironmentRepository {
  constructor(private readonly dataSource: DataSource) {}

  async find(orgId: string, name: string, manager: EntityManager = this.dataSource.manager): Promise<EnvironmentRecord | null> {
    const rows: EnvironmentRecord[] = await manager.query(`SELECT ${COLUMNS} FROM environments WHERE org_id = $1 AND name = $2`, [orgId, name]);
    return rows[0] ?? null;
  }

  /** Its name now (after any rename), or null when this org has no environment with that id. */
  async nameOf(orgId: string, id: string): Promise<string | null> {
    const rows: Array<{ name: string }> = await this.dataSource.query(`SELECT name FROM environments WHERE org_id = $1 AND id = $2`, [orgId, id]);
    return rows[0]?.name ?? null;
  }

  /** Every environment not archived, by name. */
  async listActive(orgId: string): Promise<Array<{ id: string; name: string; type: string }>> {
    return this.dataSource.query(`SELECT id, name, type FROM environments WHERE org_id = $1 AND archived_at IS NULL ORDER BY name`, [orgId]);
  }

  /** The environments of this org among `names` (those that exist). */
  async findMany(manager: EntityManager, orgId: string, names: string[]): Promise<EnvironmentRecord[]> {
    if (!names.length) return [];
    return manager.query(`SELECT ${COLUMNS} FROM environments WHERE org_id = $1 AND name = ANY($2::text[]) ORDER BY name`, [orgId, names]);
  }

  /** Inserts it unless the (org, name) exists; race-safe. Returns the new id, or null when it existed. */
  async insert(manager: EntityManager, env: NewEnvironment): Promise<string | null> {
    const rows: Array<{ id: string }> = await manager.query(
      `INSERT INTO environments (id, org_id, name, type, description, include_scaling, require_provenance, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (org_id, name) DO NOTHING RETURNING id`,
      [randomUUID(), env.orgId, env.name, env.type, env.description, env.includeScaling, env.requireProvenance, env.actor],
    );
    return rows[0]?.id ?? null;
  }

  /** Takes the environment row for the rest of the transaction (reports, joins, tags) and returns it as it is now. */
  async lock(manager: EntityManager, orgId: string, name: string): Promise<EnvironmentRecord | null> {
    const rows: EnvironmentRecord[] = await manager.query(
      `SELECT ${COLUMNS} FROM environments WHERE org_id = $1 AND name = $2 FOR NO KEY UPDATE`,
      [orgId, name],
    );
    return rows[0] ?? null;
  }

  async update(manager: EntityManager, id: string, changes: EnvironmentChanges): Promise<void> {
    const sets: string[] = [];
    const params: unknown[] = [id];
    const set = (column: string, value: unknown) => {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    if (changes.description !== undefined) set('description', changes.description);
    if (changes.includeScaling !== undefined) set('include_scaling', changes.includeScaling);
    if (changes.requireProvenance !== undefined) set('require_provenance', changes.requireProvenance);
    if (!sets.length) return;
    await manager.query(`UPDATE environments SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, params);
  }

  /**
   * An unchanged report: `last_reported_at` moves only when it is older than the resolution, so most unchanged
   * reports write nothing at all (the statement matches no row).
   */
  async touchReported(id: string, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query(
      `UPDATE environments SET last_reported_at = now()
       WHERE id = $1 AND (last_reported_at IS NULL OR last_reported_at < now() - make_interval(secs => $2))`,
      [id, REPORTED_AT_RESOLUTION_SECONDS],
    );
  }

  /** The environment is now at snapshot `taken.number` (under the row lock taken by `lock`). */
  async recordSnapshot(manager: EntityManager, id: string, taken: SnapshotTaken): Promise<void> {
    await manager.query(
      `UPDATE environments SET last_snapshot = $2, last_snapshot_at = to_timestamp($3), set_hash = $4, scale_hash = $5,
         compliant = $6, last_reported_at = to_timestamp($3)
       WHERE id = $1`,
      [id, taken.number, taken.createdAt, taken.setHash, taken.scaleHash, taken.compliant],
    );
  }

  /** Adds members to a logical environment; a member already there stays as it is. */
  async addMembers(manager: EntityManager, orgId: string, logicalId: string, memberIds: string[]): Promise<void> {
    if (!memberIds.length) return;
    await manager.query(
      `INSERT INTO environment_members (org_id, logical_id, member_id)
       SELECT $1, $2, m FROM unnest($3::uuid[]) AS m
       ON CONFLICT DO NOTHING`,
      [orgId, logicalId, memberIds],
    );
  }

  /** A logical environment's members become exactly `memberIds`. */
  async replaceMembers(manager: EntityManager, orgId: string, logicalId: string, memberIds: string[]): Promise<void> {
    await manager.query(`DELETE FROM environment_members WHERE org_id = $1 AND logical_id = $2 AND NOT (member_id = ANY($3::uuid[]))`, [
      orgId,
      logicalId,
      memberIds,
    ]);
    await this.addMembers(manager, orgId, logicalId, memberIds);
  }

  /** The names of the logical environments `memberId` belongs to. */
  async logicalNamesOf(manager: EntityManager, orgId: string, memberId: string): Promise<string[]> {
    const rows: Array<{ name: string }> = await manager.query(
      `SELECT e.name FROM environment_members m JOIN environments e ON e.id = m.logical_id
       WHERE m.org_id = $1 AND m.member_id = $2 ORDER BY e.name`,
      [orgId, memberId],
    );
    return rows.map((r) => r.name);
  }

  /** The tags module's writer for environments (by name): false when the org has no such environment. */
  async updateTags(
    manager: EntityManager,
    orgId: string,
    name: string,
    update: (current: Record<string, string>) => Record<string, string>,
  ): Promise<boolean> {
    const env = await this.lock(manager, orgId, name);
    if (!env) return false;
    await manager.query(`UPDATE environments SET tags = $2, updated_at = now() WHERE id = $1`, [env.id, JSON.stringify(update(env.tags ?? {}))]);
    return true;
  }

  /** Archives an environment (once: archiving it again changes nothing); false when there is no such environment. */
  async archive(manager: EntityManager, orgId: string, name: string, actor: string): Promise<boolean> {
    // TypeORM answers an UPDATE with [rows, count].
    const [rows]: [Array<{ id: string }>, number] = await manager.query(
      `UPDATE environments SET archived_at = COALESCE(archived_at, now()), archived_by = COALESCE(archived_by, $3)
       WHERE org_id = $1 AND name = $2 RETURNING id`,
      [orgId, name, actor],
    );
    return rows.length > 0;
  }

  /** Renames an environment (the caller holds its row and checked the new name is free). */
  async rename(manager: EntityManager, orgId: string, id: string, newName: string): Promise<void> {
    await manager.query(`UPDATE environments SET name = $3, updated_at = now() WHERE org_id = $1 AND id = $2`, [orgId, id, newName]);
  }
}
