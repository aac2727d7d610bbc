import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Environment policies (module `policies`): a policy is a name with immutable, numbered versions of its YAML
 * (`policy_versions`, never updated); `environment_policies` says which policies an environment has attached
 * (the latest version of each applies); `allowlist_entries` are artifacts allowed in an environment whatever
 * the policies say. A snapshot records the policy versions it was judged by (`environment_snapshots.
 * applied_policies`, written once with the snapshot; `[]` for snapshots taken without policies).
 */
export class CreatePolicies1763860000000 implements MigrationInterface {
  name = 'CreatePolicies1763860000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE policies (
        id uuid NOT NULL,
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        type text NOT NULL DEFAULT 'env',
        latest_version integer NOT NULL,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_modified_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (id, org_id),
        CONSTRAINT policies_org_name_key UNIQUE (org_id, name)
      )`);
    await q.query(`
      CREATE TABLE policy_versions (
        org_id uuid NOT NULL,
        policy_id uuid NOT NULL,
        version integer NOT NULL,
        policy_yaml text NOT NULL,
        spec jsonb NOT NULL,
        comment text NOT NULL DEFAULT '',
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, policy_id, version),
        FOREIGN KEY (policy_id, org_id) REFERENCES policies (id, org_id) ON DELETE CASCADE
      )`);
    await q.query(`
      CREATE TABLE environment_policies (
        org_id uuid NOT NULL,
        environment_id uuid NOT NULL,
        policy_id uuid NOT NULL,
        attached_by text NOT NULL,
        attached_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, environment_id, policy_id),
        FOREIGN KEY (environment_id, org_id) REFERENCES environments (id, org_id) ON DELETE CASCADE,
        FOREIGN KEY (policy_id, org_id) REFERENCES policies (id, org_id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX environment_policies_policy_idx ON environment_policies (org_id, policy_id)`);
    await q.query(`
      CREATE TABLE allowlist_entries (
        org_id uuid NOT NULL,
        environment_id uuid NOT NULL,
        fingerprint text NOT NULL,
        artifact_name text NOT NULL,
        description text NOT NULL,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, environment_id, fingerprint, artifact_name),
        FOREIGN KEY (environment_id, org_id) REFERENCES environments (id, org_id) ON DELETE CASCADE
      )`);
    await q.query(`ALTER TABLE environment_snapshots ADD COLUMN applied_policies jsonb NOT NULL DEFAULT '[]'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE environment_snapshots DROP COLUMN applied_policies`);
    await q.query(`DROP TABLE allowlist_entries`);
    await q.query(`DROP TABLE environment_policies`);
    await q.query(`DROP TABLE policy_versions`);
    await q.query(`DROP TABLE policies`);
  }
}
