import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { PolicyVersionResponse } from '../dto/policy-version.response';
import type { PolicySpec } from '../domain/policy-spec';

export interface PolicyRow {
  id: string;
  name: string;
  description: string;
  type: string;
  latest_version: number;
  created_by: string;
  created_at: number;
  last_modified_at: number;
}

export interface PolicyVersionRow {
  policy_id: string;
  version: number;
  policy_yaml: string;
  spec: PolicySpec;
  comment: string;
  created_by: string;
  created_at: number;
}

/** A policy's latest version with its name: what an environment or an assertion applies. */
export interface AppliedPolicy {
  id: string;
  name: string;
  version: number;
  spec: PolicySpec;
}

const POLICY_COLUMNS = `p.id, p.name, p.description, p.type, p.latest_version, p.created_by,
  EXTRACT(EPOCH FROM p.created_at)::float8 AS created_at, EXTRACT(EPOCH FROM p.last_modified_at)::float8 AS last_modified_at`;

/** Owns `policies` and `policy_versions` (versions are inserted, never changed). */
@Injectable()
export class PolicyRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Locks the policy row (serialises new versions of one policy); null when there is none. */
  async lock(manager: EntityManager, orgId: string, name: string): Promise<PolicyRow | null> {
    const rows: PolicyRow[] = await manager.query(`SELECT ${POLICY_COLUMNS} FROM policies p WHERE p.org_id = $1 AND p.name = $2 FOR UPDATE`, [orgId, name]);
    return rows[0] ?? null;
  }

  /** Inserts a policy with its version 1; null when the name was taken meanwhile. */
  async create(
    manager: EntityManager,
    orgId: string,
    p: { name: string; description: string; yaml: string; spec: PolicySpec; comment: string; actor: string },
  ): Promise<string | null> {
    const id = randomUUID();
    const rows = await manager.query(
      `INSERT INTO policies (id, org_id, name, description, latest_version, created_by) VALUES ($1, $2, $3, $4, 1, $5)
       ON CONFLICT (org_id, name) DO NOTHING RETURNING id`,
      [id, orgId, p.name, p.description, p.actor],
    );
    if (!rows.length) return null;
    await this.insertVersion(manager, orgId, id, 1, p);
    return id;
  }

  async addVersion(
    manager: EntityManager,
    orgId: string,
    policy: PolicyRow,
    p: { description: string; yaml: string; spec: PolicySpec; comment: string; actor: string },
  ): Promise<void> {
    const version = policy.latest_version + 1;
    await this.insertVersion(manager, orgId, policy.id, version, p);
    await manager.query(`UPDATE policies SET latest_version = $3, description = $4, last_modified_at = now() WHERE org_id = $1 AND id = $2`, [
      orgId,
      policy.id,
      version,
      p.description,
    ]);
  }

  /** The text all versions of the policy hold together (YAML and comments), in bytes. */
  async historyBytes(manager: EntityManager, orgId: string, policyId: string): Promise<number> {
    const [{ bytes }]: Array<{ bytes: string }> = await manager.query(
      `SELECT COALESCE(sum(octet_length(policy_yaml) + octet_length(comment)), 0)::bigint AS bytes FROM policy_versions WHERE org_id = $1 AND policy_id = $2`,
      [orgId, policyId],
    );
    return Number(bytes);
  }

  async setDescription(manager: EntityManager, orgId: string, policyId: string, description: string): Promise<void> {
    await manager.query(`UPDATE policies SET description = $3, last_modified_at = now() WHERE org_id = $1 AND id = $2`, [orgId, policyId, description]);
  }

  private async insertVersion(
    manager: EntityManager,
    orgId: string,
    policyId: string,
    version: number,
    p: { yaml: string; spec: PolicySpec; comment: string; actor: string },
  ): Promise<void> {
    await manager.query(
      `INSERT INTO policy_versions (org_id, policy_id, version, policy_yaml, spec, comment, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [orgId, policyId, version, p.yaml, JSON.stringify(p.spec), p.comment, p.actor],
    );
  }

  /**
   * One version as `GET /policies/{org}/{name}/versions/{version}` answers it (also what the evidence log
   * hashes, read in the writing transaction); null when there is none.
   */
  async version(orgId: string, name: string, version: number, manager: EntityManager = this.dataSource.manager): Promise<PolicyVersionResponse | null> {
    const rows: PolicyVersionResponse[] = await manager.query(
      `SELECT p.name, v.version, v.comment, EXTRACT(EPOCH FROM v.created_at)::float8 AS timestamp, v.created_by, v.policy_yaml
       FROM policies p JOIN policy_versions v ON v.org_id = p.org_id AND v.policy_id = p.id
       WHERE p.org_id = $1 AND p.name = $2 AND v.version = $3`,
      [orgId, name, version],
    );
    return rows[0] ?? null;
  }

  async latestYaml(manager: EntityManager, orgId: string, policyId: string, version: number): Promise<string> {
    const rows = await manager.query(`SELECT policy_yaml FROM policy_versions WHERE org_id = $1 AND policy_id = $2 AND version = $3`, [orgId, policyId, version]);
    return rows[0].policy_yaml;
  }

  /**
   * By control identifier, the names (sorted) of the org's policies whose latest version has a decision rule
   * for that control (`type: decision`, `for_control`); identifiers without any are left out.
   */
  async namesReferencingControls(orgId: string, identifiers: readonly string[]): Promise<Map<string, string[]>> {
    const rows: Array<{ identifier: string; names: string[] }> = await this.dataSource.query(
      `SELECT c.identifier, array_agg(p.name ORDER BY p.name) AS names
       FROM unnest($2::text[]) AS c(identifier)
       JOIN policies p ON p.org_id = $1
       JOIN policy_versions v ON v.org_id = p.org_id AND v.policy_id = p.id AND v.version = p.latest_version
       WHERE v.spec -> 'artifacts' -> 'attestations' @> jsonb_build_array(jsonb_build_object('type', 'decision', 'for_control', c.identifier))
       GROUP BY c.identifier`,
      [orgId, [...new Set(identifiers)]],
    );
    return new Map(rows.map((r) => [r.identifier, r.names]));
  }

  /** The latest version of each named policy that exists (by name). */
  async latestByNames(orgId: string, names: readonly string[], manager: EntityManager = this.dataSource.manager): Promise<AppliedPolicy[]> {
    if (!names.length) return [];
    return manager.query(
      `SELECT p.id, p.name, v.version, v.spec FROM policies p
       JOIN policy_versions v ON v.org_id = p.org_id AND v.policy_id = p.id AND v.version = p.latest_version
       WHERE p.org_id = $1 AND p.name = ANY($2) ORDER BY p.name`,
      [orgId, names],
    );
  }
}
