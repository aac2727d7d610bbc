import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** A member of a logical environment, with what the logical environment's view is made of. */
export interface MemberRow {
  id: string;
  name: string;
  type: string;
  compliant: boolean | null;
  last_snapshot: number;
  last_reported_at: number | null;
  last_snapshot_at: number | null;
}

/** An environment as its read routes show it. Times are Unix seconds. */
export interface EnvironmentRow {
  id: string;
  name: string;
  type: string;
  description: string;
  include_scaling: boolean;
  require_provenance: boolean;
  tags: Record<string, string>;
  created_by: string;
  created_at: number;
  last_modified_at: number;
  last_reported_at: number | null;
  last_snapshot_at: number | null;
  last_snapshot: number;
  compliant: boolean | null;
  /** A logical environment's members, by name; [] for a physical one. */
  members: MemberRow[];
  /** Names of the policies attached (the policies module's table, read here). */
  policies: string[];
  archived_at: number | null;
  /** Its renames, oldest first. */
  renames: Array<{ from: string; to: string; by: string; timestamp: number }>;
}

export interface EnvironmentListFilter {
  /** Name contains (case-insensitive). */
  name?: string;
  types?: string[];
  /** Each `key` (has the tag) or `key:value` / `key=value` (has it with that value); all must hold. */
  tags?: string[];
  /** Environments in these spaces: Veritrail has no spaces, so any is none. */
  spaceIds?: string[];
  sort: 'name' | 'last_modified_at' | 'last_changed_at';
  direction: 'asc' | 'desc';
  /** true: only archived environments; otherwise only those not archived. */
  archived?: boolean;
}

const epoch = (column: string) => `EXTRACT(EPOCH FROM ${column})::float8`;

const COLUMNS = `e.id, e.name, e.type, e.description, e.include_scaling, e.require_provenance, e.tags, e.created_by,
  ${epoch('e.created_at')} AS created_at,
  ${epoch('GREATEST(e.updated_at, COALESCE(e.last_snapshot_at, e.updated_at))')} AS last_modified_at,
  ${epoch('e.last_reported_at')} AS last_reported_at, ${epoch('e.last_snapshot_at')} AS last_snapshot_at,
  e.last_snapshot, e.compliant,
  COALESCE((SELECT json_agg(json_build_object('id', m.id, 'name', m.name, 'type', m.type, 'compliant', m.compliant,
      'last_snapshot', m.last_snapshot, 'last_reported_at', ${epoch('m.last_reported_at')},
      'last_snapshot_at', ${epoch('m.last_snapshot_at')}) ORDER BY m.name)
    FROM environment_members em JOIN environments m ON m.id = em.member_id
    WHERE em.org_id = e.org_id AND em.logical_id = e.id), '[]') AS members,
  COALESCE((SELECT array_agg(p.name ORDER BY p.name) FROM environment_policies ep JOIN policies p ON p.org_id = ep.org_id AND p.id = ep.policy_id
    WHERE ep.org_id = e.org_id AND ep.environment_id = e.id), '{}') AS policies,
  ${epoch('e.archived_at')} AS archived_at,
  (SELECT COALESCE(json_agg(json_build_object('from', r.old_name, 'to', r.new_name, 'by', r.renamed_by,
            'timestamp', ${epoch('r.renamed_at')}) ORDER BY r.renamed_at), '[]')
     FROM environment_renames r WHERE r.org_id = e.org_id AND r.environment_id = e.id) AS renames`;

const SORT_COLUMNS = { name: 'e.name', last_modified_at: 'GREATEST(e.updated_at, COALESCE(e.last_snapshot_at, e.updated_at))', last_changed_at: 'e.last_snapshot_at' };

/** Read model of environments for the environment and snapshot routes. */
@Injectable()
export class EnvironmentReader {
  constructor(private readonly dataSource: DataSource) {}

  async find(orgId: string, name: string): Promise<EnvironmentRow | null> {
    const rows: EnvironmentRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM environments e WHERE e.org_id = $1 AND e.name = $2`, [orgId, name]);
    return rows.map(numbers)[0] ?? null;
  }

  /** All matching environments, sorted; with `page` (from 1) and `perPage`, that page and the total. */
  async list(orgId: string, filter: EnvironmentListFilter, page?: { page: number; perPage: number }): Promise<{ rows: EnvironmentRow[]; total: number }> {
    const params: unknown[] = [orgId];
    const where = ['e.org_id = $1'];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    if (filter.spaceIds?.length) where.push('false');
    where.push(`e.archived_at IS ${filter.archived ? 'NOT NULL' : 'NULL'}`);
    if (filter.name) where.push(`e.name ILIKE ${param(`%${filter.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`);
    if (filter.types?.length) where.push(`e.type = ANY(${param(filter.types)}::text[])`);
    for (const tag of filter.tags ?? []) {
      const at = tag.search(/[:=]/);
      if (at < 0) where.push(`e.tags ? ${param(tag)}`);
      else where.push(`e.tags ->> ${param(tag.slice(0, at))} = ${param(tag.slice(at + 1))}`);
    }
    const direction = filter.direction === 'desc' ? 'DESC' : 'ASC';
    const order = `ORDER BY ${SORT_COLUMNS[filter.sort]} ${direction} NULLS LAST, e.name ${direction}`;
    const sql = `SELECT ${COLUMNS} FROM environments e WHERE ${where.join(' AND ')} ${order}`;
    if (!page) {
      const rows: EnvironmentRow[] = await this.dataSource.query(sql, params);
      return { rows: rows.map(numbers), total: rows.length };
    }
    const [{ total }]: Array<{ total: number }> = await this.dataSource.query(
      `SELECT count(*)::int AS total FROM environments e WHERE ${where.join(' AND ')}`,
      params,
    );
    const rows: EnvironmentRow[] = await this.dataSource.query(`${sql} LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}`, params);
    return { rows: rows.map(numbers), total };
  }
}

const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

function numbers(row: EnvironmentRow): EnvironmentRow {
  return {
    ...row,
    created_at: Number(row.created_at),
    last_modified_at: Number(row.last_modified_at),
    last_reported_at: num(row.last_reported_at),
    last_snapshot_at: num(row.last_snapshot_at),
    archived_at: num(row.archived_at),
    members: row.members.map((m) => ({ ...m, last_reported_at: num(m.last_reported_at), last_snapshot_at: num(m.last_snapshot_at) })),
  };
}
