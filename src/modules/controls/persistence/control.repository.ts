import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { ControlChange, ControlVersionResponse } from '../dto/control-version.response';

/** A control as stored; timestamps are Unix seconds. */
export interface ControlRow {
  id: string;
  identifier: string;
  name: string;
  description: string;
  links: Record<string, string>;
  tags: Record<string, string>;
  version: number;
  archived: boolean;
  created_by: string;
  created_at: number;
  updated_at: number;
  policies_referencing: string[];
}

export interface ControlChanges {
  name?: string;
  description?: string;
  links?: Record<string, string>;
}

const COLUMNS = `c.id, c.identifier, c.name, c.description, c.links, c.tags, c.version, c.archived, c.created_by,
  EXTRACT(EPOCH FROM c.created_at)::float8 AS created_at, EXTRACT(EPOCH FROM c.updated_at)::float8 AS updated_at,
  COALESCE((SELECT array_agg(r.policy ORDER BY r.last_referenced_at DESC, r.policy)
            FROM control_policy_references r WHERE r.org_id = c.org_id AND r.control_id = c.id), '{}') AS policies_referencing`;

const VERSION_QUERY = `SELECT v.identifier, v.version, v.name, v.description, v.links, v.archived, v.change, v.changed_by,
  EXTRACT(EPOCH FROM v.changed_at)::float8 AS changed_at FROM control_versions v WHERE v.org_id = $1 AND v.identifier = $2`;

/** Owns `controls`, `control_versions` and `control_policy_references`. */
@Injectable()
export class ControlRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Inserts a control; null when the identifier is taken in the org. */
  async insert(
    manager: EntityManager,
    orgId: string,
    control: { identifier: string; name: string; description: string; links: Record<string, string>; createdBy: string },
  ): Promise<boolean> {
    const rows = await manager.query(
      `INSERT INTO controls (org_id, id, identifier, name, description, links, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (org_id, identifier) DO NOTHING RETURNING id`,
      [orgId, randomUUID(), control.identifier, control.name, control.description, JSON.stringify(control.links), control.createdBy],
    );
    return rows.length > 0;
  }

  async find(orgId: string, identifier: string, manager: EntityManager = this.dataSource.manager): Promise<ControlRow | null> {
    const rows: ControlRow[] = await manager.query(`SELECT ${COLUMNS} FROM controls c WHERE c.org_id = $1 AND c.identifier = $2`, [
      orgId,
      identifier,
    ]);
    return rows[0] ?? null;
  }

  /** Locks the control row and returns its tags; null when there is none. */
  async lockTags(manager: EntityManager, orgId: string, identifier: string): Promise<{ id: string; tags: Record<string, string> } | null> {
    const rows: Array<{ id: string; tags: Record<string, string> }> = await manager.query(
      `SELECT id, tags FROM controls WHERE org_id = $1 AND identifier = $2 FOR UPDATE`,
      [orgId, identifier],
    );
    return rows[0] ?? null;
  }

  /** Locks the control row for the rest of the transaction; null when there is none. */
  async lock(manager: EntityManager, orgId: string, identifier: string): Promise<{ id: string; archived: boolean } | null> {
    const rows: Array<{ id: string; archived: boolean }> = await manager.query(
      `SELECT id, archived FROM controls WHERE org_id = $1 AND identifier = $2 FOR UPDATE`,
      [orgId, identifier],
    );
    return rows[0] ?? null;
  }

  /**
   * The control's id and archived flag, holding its row FOR SHARE to the end of the transaction: an archive
   * (which takes the row FOR UPDATE) waits for that transaction, and one committed before shows here. Null
   * when there is none.
   */
  async lockShared(manager: EntityManager, orgId: string, identifier: string): Promise<{ id: string; archived: boolean } | null> {
    const rows: Array<{ id: string; archived: boolean }> = await manager.query(
      `SELECT id, archived FROM controls WHERE org_id = $1 AND identifier = $2 FOR SHARE`,
      [orgId, identifier],
    );
    return rows[0] ?? null;
  }

  /** Applies the changes given and bumps `version`, when anything changes: the new version, or null when nothing changed. */
  async update(manager: EntityManager, orgId: string, id: string, changes: ControlChanges & { archived?: boolean }): Promise<number | null> {
    const columns: string[] = [];
    const values: string[] = [];
    const params: unknown[] = [orgId, id];
    const set = (column: string, value: unknown, cast = '') => {
      params.push(value);
      columns.push(column);
      values.push(`$${params.length}${cast}`);
    };
    if (changes.name !== undefined) set('name', changes.name);
    if (changes.description !== undefined) set('description', changes.description);
    if (changes.links !== undefined) set('links', JSON.stringify(changes.links), '::jsonb');
    if (changes.archived !== undefined) set('archived', changes.archived, '::boolean');
    if (!columns.length) return null;
    const rows: Array<{ version: number }> = await manager.query(
      `UPDATE controls SET ${columns.map((c, i) => `${c} = ${values[i]}`).join(', ')}, version = version + 1, updated_at = clock_timestamp()
       WHERE org_id = $1 AND id = $2 AND (${columns.join(', ')}) IS DISTINCT FROM (${values.join(', ')}) RETURNING version`,
      params,
    );
    // A raw UPDATE through TypeORM answers [rows, count].
    const returned = Array.isArray(rows[0]) ? (rows[0] as unknown as Array<{ version: number }>) : rows;
    return returned[0]?.version ?? null;
  }

  /**
   * Keeps the control as it is now (after a change, in the same transaction) as its current version in
   * `control_versions`, and answers it as `GET /controls/{org}/{identifier}/versions/{version}` does.
   */
  async recordVersion(manager: EntityManager, orgId: string, identifier: string, change: ControlChange, actor: string): Promise<ControlVersionResponse> {
    await manager.query(
      `INSERT INTO control_versions (org_id, control_id, version, identifier, name, description, links, archived, change, changed_by, changed_at)
       SELECT org_id, id, version, identifier, name, description, links, archived, $3, $4, updated_at FROM controls WHERE org_id = $1 AND identifier = $2`,
      [orgId, identifier, change, actor],
    );
    const rows: ControlVersionResponse[] = await manager.query(
      `${VERSION_QUERY} AND v.version = (SELECT version FROM controls WHERE org_id = $1 AND identifier = $2)`,
      [orgId, identifier],
    );
    return rows[0];
  }

  /** One kept version of a control; null when there is none. */
  async version(orgId: string, identifier: string, version: number): Promise<ControlVersionResponse | null> {
    const rows: ControlVersionResponse[] = await this.dataSource.query(`${VERSION_QUERY} AND v.version = $3`, [orgId, identifier, version]);
    return rows[0] ?? null;
  }

  async setTags(manager: EntityManager, orgId: string, id: string, tags: Record<string, string>): Promise<void> {
    await manager.query(`UPDATE controls SET tags = $3, updated_at = clock_timestamp() WHERE org_id = $1 AND id = $2`, [
      orgId,
      id,
      JSON.stringify(tags),
    ]);
  }

  /** Notes that a policy (an evaluation bundle, by digest) decided on the control. */
  async noteReference(manager: EntityManager, orgId: string, controlId: string, policy: string): Promise<void> {
    await manager.query(
      `INSERT INTO control_policy_references (org_id, control_id, policy) VALUES ($1, $2, $3)
       ON CONFLICT (org_id, control_id, policy) DO UPDATE SET last_referenced_at = clock_timestamp()`,
      [orgId, controlId, policy],
    );
  }

  /** One page by name (archived or active ones), with the total. */
  async page(
    orgId: string,
    filter: { archived: boolean; search?: string; tags: Array<{ key: string; value: string }>; descending: boolean },
    page: number,
    perPage: number,
  ): Promise<{ rows: ControlRow[]; total: number }> {
    const params: unknown[] = [orgId, filter.archived];
    const where = ['c.org_id = $1', 'c.archived = $2'];
    if (filter.search) {
      params.push(`%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      where.push(`(c.identifier ILIKE $${params.length} OR c.name ILIKE $${params.length})`);
    }
    for (const tag of filter.tags) {
      params.push(JSON.stringify({ [tag.key]: tag.value }));
      where.push(`c.tags @> $${params.length}::jsonb`);
    }
    const from = `FROM controls c WHERE ${where.join(' AND ')}`;
    const [{ total }]: Array<{ total: number }> = await this.dataSource.query(`SELECT count(*)::int AS total ${from}`, params);
    const order = filter.descending ? 'DESC' : 'ASC';
    const rows: ControlRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} ${from} ORDER BY c.name ${order}, c.identifier ${order} LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
      params,
    );
    return { rows, total };
  }
}
