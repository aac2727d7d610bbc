import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Signed decisions: the DSSE envelope of every completed evaluation, stored as the exact canonical JSON bytes
 * the attestation route serves (their SHA-256 is the record_sha256 of the evaluation's log entry). Written once
 * in the transaction that completes the evaluation; a trigger refuses UPDATE and DELETE.
 */
export class CreateEvaluationEnvelopes1764010000000 implements MigrationInterface {
  name = 'CreateEvaluationEnvelopes1764010000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE evaluation_envelopes (
        org_id uuid NOT NULL,
        evaluation_id uuid NOT NULL,
        envelope text NOT NULL,
        sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (org_id, evaluation_id)
      )`);
    await q.query(`
      CREATE FUNCTION evaluation_envelopes_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'append-only: % on % is refused (a signed decision is never changed)', TG_OP, TG_TABLE_NAME
          USING ERRCODE = 'restrict_violation';
      END $$`);
    await q.query(`
      CREATE TRIGGER evaluation_envelopes_append_only BEFORE UPDATE OR DELETE ON evaluation_envelopes
        FOR EACH ROW EXECUTE FUNCTION evaluation_envelopes_append_only()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE evaluation_envelopes`);
    await q.query(`DROP FUNCTION evaluation_envelopes_append_only()`);
  }
}
