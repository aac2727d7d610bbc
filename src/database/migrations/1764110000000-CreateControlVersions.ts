import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `control_versions`: one row per change of a control (created, edited, archived, unarchived), as it was after
 * that change, so that `GET /controls/{org}/{identifier}/versions/{version}` answers the same for ever and the
 * evidence log can hash it. Append-only like the other evidence tables (the same trigger function). Controls
 * that exist already get one row for their current version (`change` = `recorded`: the state found at the
 * upgrade; logged by the backfill, migration 1764110200000); their earlier versions were never kept.
 */
export class CreateControlVersions1764110000000 implements MigrationInterface {
  name = 'CreateControlVersions1764110000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE control_versions (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        control_id uuid NOT NULL,
        version int NOT NULL,
        identifier text NOT NULL,
        name text NOT NULL,
        description text NOT NULL,
        links jsonb NOT NULL,
        archived boolean NOT NULL,
        change text NOT NULL CHECK (change IN ('created', 'edited', 'archived', 'unarchived', 'recorded')),
        changed_by text NOT NULL,
        changed_at timestamptz NOT NULL,
        PRIMARY KEY (org_id, control_id, version)
      )`);
    await q.query(`CREATE INDEX control_versions_identifier ON control_versions (org_id, identifier, version)`);
    await q.query(`
      INSERT INTO control_versions (org_id, control_id, version, identifier, name, description, links, archived, change, changed_by, changed_at)
      SELECT org_id, id, version, identifier, name, description, links, archived, 'recorded', created_by, updated_at FROM controls`);
    await q.query(
      `CREATE TRIGGER control_versions_append_only BEFORE UPDATE OR DELETE ON control_versions FOR EACH ROW EXECUTE FUNCTION evidence_append_only()`,
    );
    await q.query(
      `CREATE TRIGGER control_versions_never_truncated BEFORE TRUNCATE ON control_versions FOR EACH STATEMENT EXECUTE FUNCTION evidence_append_only()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE control_versions`);
  }
}
