import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lighter indexes on `log_entries` (the evidence log's cost on ingest is mostly these rows' index upkeep).
 *
 * - One record, one entry: the B-tree UNIQUE (org_id, kind, record_id) (keys of about 70 bytes, inserted at
 *   random places) becomes an exclusion constraint over a hash index of one text key
 *   `org_id/kind/record_id`: the same refusal of a second entry for a record, with 4-byte index entries.
 *   `lookup` finds a record's entry through it (the query names the same expression).
 * - Proof by leaf hash: the B-tree (org_id, leaf_hash) becomes a hash index of `leaf_hash` (the org is checked
 *   on the row; a leaf names its org, so two orgs' leaves never share a hash).
 */
export class LightenEvidenceLogIndexes1764100000000 implements MigrationInterface {
  name = 'LightenEvidenceLogIndexes1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE log_entries DROP CONSTRAINT log_entries_org_id_kind_record_id_key`);
    await q.query(
      `ALTER TABLE log_entries ADD CONSTRAINT log_entries_one_per_record
       EXCLUDE USING hash ((org_id::text || '/' || kind || '/' || record_id) WITH =)`,
    );
    await q.query(`DROP INDEX log_entries_leaf_hash`);
    await q.query(`CREATE INDEX log_entries_leaf_hash ON log_entries USING hash (leaf_hash)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX log_entries_leaf_hash`);
    await q.query(`CREATE INDEX log_entries_leaf_hash ON log_entries (org_id, leaf_hash)`);
    await q.query(`ALTER TABLE log_entries DROP CONSTRAINT log_entries_one_per_record`);
    await q.query(`ALTER TABLE log_entries ADD CONSTRAINT log_entries_org_id_kind_record_id_key UNIQUE (org_id, kind, record_id)`);
  }
}
