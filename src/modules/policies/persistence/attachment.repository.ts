import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AppliedPolicy } from './policy.repository';

/** Owns `environment_policies`: which policies an environment has attached. */
@Injectable()
export class AttachmentRepository {
  constructor(private readonly dataSource: DataSource) {}

  async attach(manager: EntityManager, orgId: string, environmentId: string, policyIds: readonly string[], actor: string): Promise<void> {
    await manager.query(
      `INSERT INTO environment_policies (org_id, environment_id, policy_id, attached_by)
       SELECT $1, $2, unnest($3::uuid[]), $4 ON CONFLICT DO NOTHING`,
      [orgId, environmentId, policyIds, actor],
    );
  }

  async detach(manager: EntityManager, orgId: string, environmentId: string, policyIds: readonly string[]): Promise<void> {
    await manager.query(`DELETE FROM environment_policies WHERE org_id = $1 AND environment_id = $2 AND policy_id = ANY($3::uuid[])`, [
      orgId,
      environmentId,
      policyIds,
    ]);
  }

  /** The latest version of every policy attached to the environment, by name. */
  async applied(orgId: string, environmentId: string, manager: EntityManager = this.dataSource.manager): Promise<AppliedPolicy[]> {
    return manager.query(
      `SELECT p.id, p.name, v.version, v.spec FROM environment_policies ep
       JOIN policies p ON p.org_id = ep.org_id AND p.id = ep.policy_id
       JOIN policy_versions v ON v.org_id = p.org_id AND v.policy_id = p.id AND v.version = p.latest_version
       WHERE ep.org_id = $1 AND ep.environment_id = $2 ORDER BY p.name`,
      [orgId, environmentId],
    );
  }

  /** `applied` for many environments in one query: each environment's policies by name (environments with none are absent). */
  async appliedFor(orgId: string, environmentIds: readonly string[]): Promise<Map<string, AppliedPolicy[]>> {
    if (!environmentIds.length) return new Map();
    const rows: Array<AppliedPolicy & { environment_id: string }> = await this.dataSource.query(
      `SELECT ep.environment_id, p.id, p.name, v.version, v.spec FROM environment_policies ep
       JOIN policies p ON p.org_id = ep.org_id AND p.id = ep.policy_id
       JOIN policy_versions v ON v.org_id = p.org_id AND v.policy_id = p.id AND v.version = p.latest_version
       WHERE ep.org_id = $1 AND ep.environment_id = ANY($2::uuid[]) ORDER BY ep.environment_id, p.name`,
      [orgId, environmentIds],
    );
    const byEnvironment = new Map<string, AppliedPolicy[]>();
    for (const { environment_id, ...policy } of rows) {
      const list = byEnvironment.get(environment_id);
      if (list) list.push(policy);
      else byEnvironment.set(environment_id, [policy]);
    }
    return byEnvironment;
  }

  /** Names of the policies attached to each environment (environments with none are absent). */
  async namesFor(orgId: string, environmentIds: readonly string[]): Promise<Map<string, string[]>> {
    if (!environmentIds.length) return new Map();
    const rows: Array<{ environment_id: string; names: string[] }> = await this.dataSource.query(
      `SELECT ep.environment_id, array_agg(p.name ORDER BY p.name) AS names FROM environment_policies ep
       JOIN policies p ON p.org_id = ep.org_id AND p.id = ep.policy_id
       WHERE ep.org_id = $1 AND ep.environment_id = ANY($2::uuid[]) GROUP BY ep.environment_id`,
      [orgId, environmentIds],
    );
    return new Map(rows.map((r) => [r.environment_id, r.names]));
  }

  /**
   * Environments covered by a control: those with an attached policy whose latest version requires a decision
   * for it (`type: decision`, `for_control`), with those policies' names.
   */
  async coveringControl(orgId: string, identifier: string): Promise<Map<string, string[]>> {
    const rows: Array<{ environment_id: string; names: string[] }> = await this.dataSource.query(
      `SELECT ep.environment_id, array_agg(p.name ORDER BY p.name) AS names FROM environment_policies ep
       JOIN policies p ON p.org_id = ep.org_id AND p.id = ep.policy_id
       JOIN policy_versions v ON v.org_id = p.org_id AND v.policy_id = p.id AND v.version = p.latest_version
       WHERE ep.org_id = $1
         AND v.spec -> 'artifacts' -> 'attestations' @> jsonb_build_array(jsonb_build_object('type', 'decision', 'for_control', $2::text))
       GROUP BY ep.environment_id`,
      [orgId, identifier],
    );
    return new Map(rows.map((r) => [r.environment_id, r.names]));
  }
}
