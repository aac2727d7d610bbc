import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Controls (what a decision answers), evaluations (a policy run at one instant against trails, with everything
 * needed to check and replay it) and evaluation policies (bundles stored once per digest).
 */
export class CreateControlsAndEvaluations1763775000000 implements MigrationInterface {
  name = 'CreateControlsAndEvaluations1763775000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE controls (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL,
        identifier text NOT NULL,
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        links jsonb NOT NULL DEFAULT '{}',
        tags jsonb NOT NULL DEFAULT '{}',
        version int NOT NULL DEFAULT 1,
        archived boolean NOT NULL DEFAULT false,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (org_id, id),
        CONSTRAINT controls_org_identifier_key UNIQUE (org_id, identifier)
      )`);
    await q.query(`
      CREATE TABLE control_policy_references (
        org_id uuid NOT NULL,
        control_id uuid NOT NULL,
        policy text NOT NULL,
        last_referenced_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (org_id, control_id, policy),
        FOREIGN KEY (org_id, control_id) REFERENCES controls (org_id, id) ON DELETE CASCADE
      )`);
    await q.query(`
      CREATE TABLE evaluation_policies (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        digest text NOT NULL,
        files jsonb NOT NULL,
        file_digests jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (org_id, digest)
      )`);
    await q.query(`
      CREATE TABLE evaluations (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL,
        org_name text NOT NULL,
        public_base_url text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'completed', 'failed')),
        requested_by text NOT NULL,
        requested_at timestamptz NOT NULL,
        recorded_at timestamptz NOT NULL,
        policy_digest text NOT NULL,
        trails jsonb NOT NULL,
        params jsonb,
        decision jsonb,
        control text,
        engine text,
        engine_version text,
        input_digest text,
        result jsonb,
        result_digest text,
        error jsonb,
        decision_attestation_id uuid,
        attempts int NOT NULL DEFAULT 0,
        lease_until timestamptz,
        completed_at timestamptz,
        PRIMARY KEY (org_id, id),
        FOREIGN KEY (org_id, policy_digest) REFERENCES evaluation_policies (org_id, digest)
      )`);
    await q.query(`CREATE INDEX evaluations_org_requested_idx ON evaluations (org_id, requested_at DESC, id DESC)`);
    await q.query(`CREATE INDEX evaluations_pending_idx ON evaluations (requested_at) WHERE status = 'pending'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE evaluations`);
    await q.query(`DROP TABLE evaluation_policies`);
    await q.query(`DROP TABLE control_policy_references`);
    await q.query(`DROP TABLE controls`);
  }
}
