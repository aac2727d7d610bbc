import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The evidence log (one Merkle log per organization). Entries are written already indexed, in the transaction
 * of the record they log, under a per-org transaction lock (EvidenceLogRepository.append), so indexes are
 * gapless and in commit order and no row ever needs changing afterwards: `integrated_at` is set at insert.
 * `log_subtrees` keeps the hash of every complete aligned subtree (2^level leaves starting at a multiple of
 * 2^level), written once when the subtree fills, so a proof is O(log n) reads. `log_checkpoints` keeps every
 * signed checkpoint. All three refuse UPDATE and DELETE (a trigger naming the rule). `log_signing_keys` lists
 * public keys; only its `active` flag may change (rotation), and no row may be deleted.
 */
export class CreateEvidenceLog1763880000000 implements MigrationInterface {
  name = 'CreateEvidenceLog1763880000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE log_entries (
        org_id uuid NOT NULL,
        idx bigint NOT NULL CHECK (idx >= 0),
        kind text NOT NULL,
        record_id text NOT NULL,
        leaf text NOT NULL,
        leaf_hash bytea NOT NULL CHECK (length(leaf_hash) = 32),
        integrated boolean NOT NULL DEFAULT true,
        integrated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (org_id, idx),
        UNIQUE (org_id, kind, record_id)
      )`);
    await q.query(`CREATE INDEX log_entries_leaf_hash ON log_entries (org_id, leaf_hash)`);
    await q.query(`
      CREATE TABLE log_subtrees (
        org_id uuid NOT NULL,
        level smallint NOT NULL CHECK (level >= 0 AND level < 63),
        start bigint NOT NULL CHECK (start >= 0),
        hash bytea NOT NULL CHECK (length(hash) = 32),
        PRIMARY KEY (org_id, level, start)
      )`);
    await q.query(`
      CREATE TABLE log_checkpoints (
        org_id uuid NOT NULL,
        size bigint NOT NULL CHECK (size >= 0),
        root bytea NOT NULL CHECK (length(root) = 32),
        note text NOT NULL,
        signed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (org_id, size)
      )`);
    await q.query(`
      CREATE TABLE log_signing_keys (
        key_id text PRIMARY KEY,
        name text NOT NULL,
        public_key bytea NOT NULL CHECK (length(public_key) = 32),
        active boolean NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`
      CREATE FUNCTION log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'append-only: % on % is refused (the evidence log is never changed or shortened)', TG_OP, TG_TABLE_NAME
          USING ERRCODE = 'restrict_violation';
      END $$`);
    for (const table of ['log_entries', 'log_subtrees', 'log_checkpoints']) {
      await q.query(`CREATE TRIGGER ${table}_append_only BEFORE UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION log_append_only()`);
    }
    await q.query(`
      CREATE FUNCTION log_signing_keys_kept() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' AND NEW.key_id = OLD.key_id AND NEW.name = OLD.name AND NEW.public_key = OLD.public_key
           AND NEW.created_at = OLD.created_at THEN
          RETURN NEW;
        END IF;
        RAISE EXCEPTION 'append-only: % on log_signing_keys is refused (a key is kept for ever; only its active flag changes)', TG_OP
          USING ERRCODE = 'restrict_violation';
      END $$`);
    await q.query(`CREATE TRIGGER log_signing_keys_kept BEFORE UPDATE OR DELETE ON log_signing_keys FOR EACH ROW EXECUTE FUNCTION log_signing_keys_kept()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE log_signing_keys, log_checkpoints, log_subtrees, log_entries`);
    await q.query(`DROP FUNCTION log_signing_keys_kept(), log_append_only()`);
  }
}
