import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PolicyResponse } from '../dto/policy.response';

/**
 * Read model of policies as the reference shows them: versions oldest first (the CLI prints the last as the
 * current content), events made from the versions, and the environments that have the policy attached (joins
 * the environments table for their names).
 */
@Injectable()
export class PolicyReader {
  constructor(private readonly dataSource: DataSource) {}

  async list(orgId: string, name?: string): Promise<PolicyResponse[]> {
    const rows: Array<{
      name: string;
      description: string;
      created_by: string;
      created_at: number;
      last_modified_at: number;
      versions: Array<{ version: number; comment: string; timestamp: number; created_by: string; policy_yaml: string }>;
      consuming_envs: string[];
    }> = await this.dataSource.query(
      `SELECT p.name, p.description, p.created_by,
         EXTRACT(EPOCH FROM p.created_at)::float8 AS created_at, EXTRACT(EPOCH FROM p.last_modified_at)::float8 AS last_modified_at,
         (SELECT json_agg(json_build_object('version', v.version, 'comment', v.comment,
                   'timestamp', EXTRACT(EPOCH FROM v.created_at)::float8, 'created_by', v.created_by, 'policy_yaml', v.policy_yaml)
                   ORDER BY v.version)
            FROM policy_versions v WHERE v.org_id = p.org_id AND v.policy_id = p.id) AS versions,
         COALESCE((SELECT array_agg(e.name ORDER BY e.name) FROM environment_policies ep
                     JOIN environments e ON e.org_id = ep.org_id AND e.id = ep.environment_id
                    WHERE ep.org_id = p.org_id AND ep.policy_id = p.id), '{}') AS consuming_envs
       FROM policies p WHERE p.org_id = $1 AND ($2::text IS NULL OR p.name = $2) ORDER BY p.name`,
      [orgId, name ?? null],
    );
    return rows.map((r) => ({
      name: r.name,
      description: r.description,
      type: 'env',
      created_by: r.created_by,
      created_at: r.created_at,
      last_modified_at: r.last_modified_at,
      archived: false,
      versions: r.versions,
      events: r.versions.map((v) => ({
        type: v.version === 1 ? 'creation' : 'new_version',
        timestamp: v.timestamp,
        user: v.created_by,
        data: { version: v.version },
      })),
      consuming_envs: r.consuming_envs,
    }));
  }
}
