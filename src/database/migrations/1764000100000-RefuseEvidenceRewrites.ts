import { MigrationInterface, QueryRunner } from 'typeorm';

/** The evidence tables: each row is a record that is never changed or removed once written. */
export const EVIDENCE_TABLES = [
  'attestations',
  'artifacts',
  'trail_moments',
  'environment_snapshots',
  'environment_events',
  'evidence_blobs',
  'policy_versions',
  'custom_attestation_type_versions',
] as const;

/**
 * Append-only in the database too: triggers refuse UPDATE, DELETE and TRUNCATE on the evidence tables (and
 * TRUNCATE on the log's own tables, whose UPDATE and DELETE were refused already), naming the rule in the
 * error. Archiving, renaming and versioning are new rows or other tables. Not covered, because the service
 * still updates them in place: `environment_artifact_runs` (a running artifact's last-seen time), and the
 * current-state tables (`trails`, `flows`, `controls`, `environments`, `evaluations`, `custom_attestation_types`,
 * `policies`, `service_accounts`, `api_keys`), whose changes are logged as entries of their own.
 */
export class RefuseEvidenceRewrites1764000100000 implements MigrationInterface {
  name = 'RefuseEvidenceRewrites1764000100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION evidence_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'append-only: % on % is refused (evidence is never changed or removed once recorded)', TG_OP, TG_TABLE_NAME
          USING ERRCODE = 'restrict_violation';
      END $$`);
    for (const table of EVIDENCE_TABLES) {
      await q.query(`CREATE TRIGGER ${table}_append_only BEFORE UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION evidence_append_only()`);
      await q.query(`CREATE TRIGGER ${table}_never_truncated BEFORE TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION evidence_append_only()`);
    }
    for (const table of ['log_entries', 'log_subtrees', 'log_checkpoints', 'log_signing_keys']) {
      await q.query(`CREATE TRIGGER ${table}_never_truncated BEFORE TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION log_append_only()`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['log_entries', 'log_subtrees', 'log_checkpoints', 'log_signing_keys']) {
      await q.query(`DROP TRIGGER ${table}_never_truncated ON ${table}`);
    }
    for (const table of EVIDENCE_TABLES) {
      await q.query(`DROP TRIGGER ${table}_append_only ON ${table}`);
      await q.query(`DROP TRIGGER ${table}_never_truncated ON ${table}`);
    }
    await q.query(`DROP FUNCTION evidence_append_only()`);
  }
}
