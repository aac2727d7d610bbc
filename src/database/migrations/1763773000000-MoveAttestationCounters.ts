import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A flow's attestation counter (`attestation_count`, `last_attested_at`) moves from `flows` into its own table,
 * `flow_attestation_counters`, owned by the attestations module: every table is written by one module, and the
 * counter is the attestations' (it numbers `flow_seq` densely and orders `created_at` within a flow).
 * A flow without attestations has no counter row (read as 0). `org_id` leads the key, as in every tenant table.
 *
 * Old replicas write the dropped columns: run this release's migration with the older replicas stopped (the
 * default start-up runs it under the migration lock before serving).
 */
export class MoveAttestationCounters1763773000000 implements MigrationInterface {
  name = 'MoveAttestationCounters1763773000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`SET LOCAL lock_timeout = '10s'`);
    await q.query(`SET LOCAL statement_timeout = 0`);
    await q.query(`LOCK TABLE flows IN ACCESS EXCLUSIVE MODE`);
    await q.query(`
      CREATE TABLE flow_attestation_counters (
        org_id uuid NOT NULL,
        flow_id uuid NOT NULL REFERENCES flows(id) ON DELETE CASCADE,
        attestation_count bigint NOT NULL,
        last_attested_at timestamptz NOT NULL,
        PRIMARY KEY (org_id, flow_id)
      )`);
    await q.query(`
      INSERT INTO flow_attestation_counters (org_id, flow_id, attestation_count, last_attested_at)
      SELECT org_id, id, attestation_count, COALESCE(last_attested_at, updated_at) FROM flows WHERE attestation_count > 0`);
    await q.query(`ALTER TABLE flows DROP COLUMN attestation_count, DROP COLUMN last_attested_at`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`SET LOCAL lock_timeout = '10s'`);
    await q.query(`LOCK TABLE flows IN ACCESS EXCLUSIVE MODE`);
    await q.query(`ALTER TABLE flows ADD COLUMN attestation_count bigint NOT NULL DEFAULT 0, ADD COLUMN last_attested_at timestamptz`);
    await q.query(`
      UPDATE flows f SET attestation_count = c.attestation_count, last_attested_at = c.last_attested_at
      FROM flow_attestation_counters c WHERE c.flow_id = f.id`);
    await q.query(`DROP TABLE flow_attestation_counters`);
  }
}
