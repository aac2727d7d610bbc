import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `credential_events`: one row per change of who may write in an org (a service account created, changed or
 * deleted; an API key created, rotated or revoked), with the record `GET /credential-events/{org}/{event_id}`
 * answers, so that answer never changes and the evidence log can hash it. The record holds a key's public
 * metadata only, never its value or hash. Append-only (the evidence tables' trigger function).
 */
export class CreateCredentialEvents1764110100000 implements MigrationInterface {
  name = 'CreateCredentialEvents1764110100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE credential_events (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL,
        record jsonb NOT NULL,
        recorded_at timestamptz NOT NULL,
        PRIMARY KEY (org_id, id)
      )`);
    await q.query(
      `CREATE TRIGGER credential_events_append_only BEFORE UPDATE OR DELETE ON credential_events FOR EACH ROW EXECUTE FUNCTION evidence_append_only()`,
    );
    await q.query(
      `CREATE TRIGGER credential_events_never_truncated BEFORE TRUNCATE ON credential_events FOR EACH STATEMENT EXECUTE FUNCTION evidence_append_only()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE credential_events`);
  }
}
