import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/** One version of a custom attestation type as stored; timestamps are Unix seconds. */
export interface CustomTypeVersionRow {
  type_name: string;
  version: number;
  description: string | null;
  type_schema: unknown | null;
  schema_digest: string | null;
  jq_rules: string[];
  summary: Array<{ name: string; expression: string }>;
  created_by: string;
  created_at: number;
}

/** A custom attestation type with all its versions, oldest first. */
export interface CustomTypeRow {
  name: string;
  archived: boolean;
  created_by: string;
  created_at: number;
  last_modified_at: number;
  versions: CustomTypeVersionRow[];
}

export interface NewVersion {
  description: string | null;
  typeSchema: unknown | null;
  schemaDigest: string | null;
  jqRules: string[];
  summary: Array<{ name: string; expression: string }>;
}

const VERSION_COLUMNS = `v.type_name, v.version, v.description, v.type_schema, v.schema_digest, v.jq_rules, v.summary, v.created_by,
  EXTRACT(EPOCH FROM v.created_at)::float8 AS created_at`;

const TYPE_COLUMNS = `t.name, t.archived, t.created_by, EXTRACT(EPOCH FROM t.created_at)::float8 AS created_at,
  EXTRACT(EPOCH FROM t.last_modified_at)::float8 AS last_modified_at,
  COALESCE((SELECT jsonb_agg(to_jsonb(x) ORDER BY x.version) FROM (SELECT ${VERSION_COLUMNS}
     FROM custom_attestation_type_versions v WHERE v.org_id = t.org_id AND v.type_name = t.name) x), '[]') AS versions`;

/** Owns `custom_attestation_types` and `custom_attestation_type_versions` (reads included: they are small). */
@Injectable()
export class CustomTypeRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Adds a version unless the latest one says the same (then nothing changes but un-archiving), creating the
   * type on its first version. The type row is locked first, so concurrent changes number versions densely.
   */
  /**
   * Defines the type or adds a version; answers the new version's number, null when nothing changed, or
   * 'history-full' (nothing added) when the versions' text with the new one would pass `maxHistoryBytes`.
   */
  async define(manager: EntityManager, orgId: string, name: string, actor: string, next: NewVersion, maxHistoryBytes: number): Promise<number | null | 'history-full'> {
    await manager.query(
      `INSERT INTO custom_attestation_types AS t (org_id, name, created_by) VALUES ($1, $2, $3)
       ON CONFLICT (org_id, name) DO UPDATE SET archived = t.archived`,
      [orgId, name, actor],
    );
    await manager.query(`SELECT 1 FROM custom_attestation_types WHERE org_id = $1 AND name = $2 FOR UPDATE`, [orgId, name]);
    const [latest]: Array<{ version: number; same: boolean }> = await manager.query(
      `SELECT version, (description IS NOT DISTINCT FROM $3 AND type_schema IS NOT DISTINCT FROM $4::jsonb
                        AND jq_rules = $5::jsonb AND summary = $6::jsonb) AS same
       FROM custom_attestation_type_versions WHERE org_id = $1 AND type_name = $2 ORDER BY version DESC LIMIT 1`,
      [orgId, name, next.description, json(next.typeSchema), JSON.stringify(next.jqRules), JSON.stringify(next.summary)],
    );
    if (latest?.same) {
      await manager.query(`UPDATE custom_attestation_types SET archived = false WHERE org_id = $1 AND name = $2 AND archived`, [orgId, name]);
      return null;
    }
    // Reads answer all versions in one jsonb aggregate (limit 255 MB): the history's text stays within a budget.
    const [{ bytes }]: Array<{ bytes: string }> = await manager.query(
      `SELECT COALESCE(sum(octet_length(COALESCE(description, '')) + octet_length(COALESCE(type_schema::text, ''))
                           + octet_length(jq_rules::text) + octet_length(summary::text)), 0)::bigint AS bytes
       FROM custom_attestation_type_versions WHERE org_id = $1 AND type_name = $2`,
      [orgId, name],
    );
    const adding = [next.description ?? '', json(next.typeSchema) ?? '', JSON.stringify(next.jqRules), JSON.stringify(next.summary)].reduce((n, s) => n + Buffer.byteLength(s), 0);
    if (Number(bytes) + adding > maxHistoryBytes) return 'history-full';
    const version = (latest?.version ?? 0) + 1;
    await manager.query(
      `INSERT INTO custom_attestation_type_versions (org_id, type_name, version, description, type_schema, schema_digest, jq_rules, summary, created_by)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7::jsonb, $8::jsonb, $9)`,
      [orgId, name, version, next.description, json(next.typeSchema), next.schemaDigest, JSON.stringify(next.jqRules), JSON.stringify(next.summary), actor],
    );
    await manager.query(
      `UPDATE custom_attestation_types SET archived = false, last_modified_at = clock_timestamp() WHERE org_id = $1 AND name = $2`,
      [orgId, name],
    );
    return version;
  }

  /**
   * Whether the type is archived, holding its row FOR SHARE to the end of the transaction: an archive (its
   * UPDATE) waits for that transaction, and one committed before answers `true` here. Null when there is none.
   */
  async lockShared(manager: EntityManager, orgId: string, name: string): Promise<{ archived: boolean } | null> {
    const rows: Array<{ archived: boolean }> = await manager.query(
      `SELECT archived FROM custom_attestation_types WHERE org_id = $1 AND name = $2 FOR SHARE`,
      [orgId, name],
    );
    return rows[0] ?? null;
  }

  /** Archives the type; false when there is none. */
  async archive(manager: EntityManager, orgId: string, name: string): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `WITH u AS (
         UPDATE custom_attestation_types
         SET archived = true, last_modified_at = CASE WHEN archived THEN last_modified_at ELSE clock_timestamp() END
         WHERE org_id = $1 AND name = $2 RETURNING name
       ) SELECT name FROM u`,
      [orgId, name],
    );
    return rows.length > 0;
  }

  async find(orgId: string, name: string, manager: EntityManager = this.dataSource.manager): Promise<CustomTypeRow | null> {
    const rows: CustomTypeRow[] = await manager.query(`SELECT ${TYPE_COLUMNS} FROM custom_attestation_types t WHERE t.org_id = $1 AND t.name = $2`, [orgId, name]);
    return rows[0] ?? null;
  }

  /** The org's types that are not archived, by name. */
  async list(orgId: string): Promise<CustomTypeRow[]> {
    return this.dataSource.query(`SELECT ${TYPE_COLUMNS} FROM custom_attestation_types t WHERE t.org_id = $1 AND NOT t.archived ORDER BY t.name`, [orgId]);
  }

  /** The latest version of a type and whether the type is archived; null when there is no such type. */
  async latest(orgId: string, name: string): Promise<{ archived: boolean; version: CustomTypeVersionRow } | null> {
    const rows: Array<CustomTypeVersionRow & { archived: boolean }> = await this.dataSource.query(
      `SELECT t.archived, ${VERSION_COLUMNS} FROM custom_attestation_types t
       JOIN custom_attestation_type_versions v ON v.org_id = t.org_id AND v.type_name = t.name
       WHERE t.org_id = $1 AND t.name = $2 ORDER BY v.version DESC LIMIT 1`,
      [orgId, name],
    );
    if (!rows.length) return null;
    const { archived, ...version } = rows[0];
    return { archived, version };
  }
}

const json = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));
