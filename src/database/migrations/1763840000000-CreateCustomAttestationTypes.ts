import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Custom attestation types: one row per type name in an org (archived or not), and its versions, append-only:
 * each change of description, JSON Schema, jq rules or summary is a new version; attestations name the version
 * that judged them.
 */
export class CreateCustomAttestationTypes1763840000000 implements MigrationInterface {
  name = 'CreateCustomAttestationTypes1763840000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE custom_attestation_types (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        archived boolean NOT NULL DEFAULT false,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        last_modified_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (org_id, name)
      )`);
    await q.query(`
      CREATE TABLE custom_attestation_type_versions (
        org_id uuid NOT NULL,
        type_name text NOT NULL,
        version int NOT NULL CHECK (version > 0),
        description text,
        type_schema jsonb,
        schema_digest text,
        jq_rules jsonb NOT NULL DEFAULT '[]',
        summary jsonb NOT NULL DEFAULT '[]',
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (org_id, type_name, version),
        FOREIGN KEY (org_id, type_name) REFERENCES custom_attestation_types (org_id, name) ON DELETE CASCADE
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE custom_attestation_type_versions');
    await q.query('DROP TABLE custom_attestation_types');
  }
}
