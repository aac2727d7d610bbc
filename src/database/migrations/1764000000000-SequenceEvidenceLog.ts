import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The evidence log's entries are now queued by the writer and sequenced afterwards, so that a write pays for
 * one unindexed row and no lock (the per-org transaction lock of 1763880000000 serialized an org's writers
 * up to their commit and halved ingest).
 *
 * `log_pending` is the queue: a writer inserts one row per record in its own transaction, with its leaf, or
 * with a reference (`ref`: what the kind's renderer needs to read the record's route once committed). It
 * has no index on purpose: the sequencer drains it whole, and the rows of one drain become `log_entries` rows
 * with the next indexes, in the same transaction as the queue rows are deleted. The queue is not the log (the
 * log is `log_entries`, append-only); a queue row exists only between its record's commit and its integration.
 *
 * `log_cursors` is for kinds whose records are their own queue (attestations, numbered densely per flow in
 * commit order by the flow's counter): the position up to which each stream (flow) is integrated, moved in the
 * transaction that integrates its records. Absent, a stream is at 0: so the first rounds after this migration
 * log every attestation recorded before it (those logged already by the earlier design are skipped).
 *
 * Subtrees of fewer than 16 leaves are no longer stored in `log_subtrees`: a proof folds them from the leaf
 * hashes of `log_entries`. Rows written before stay (they hold the same hashes).
 */
export class SequenceEvidenceLog1764000000000 implements MigrationInterface {
  name = 'SequenceEvidenceLog1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE log_pending (
        seq bigint GENERATED ALWAYS AS IDENTITY,
        org_id uuid NOT NULL,
        kind text NOT NULL,
        record_id text NOT NULL,
        leaf text,
        leaf_hash bytea CHECK (length(leaf_hash) = 32),
        ref jsonb,
        queued_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((leaf IS NULL) = (leaf_hash IS NULL) AND (leaf IS NULL) = (ref IS NOT NULL))
      )`);
    await q.query(`
      CREATE TABLE log_cursors (
        kind text NOT NULL,
        stream text NOT NULL,
        position bigint NOT NULL CHECK (position >= 0),
        PRIMARY KEY (kind, stream)
      )`);
    // The queue is drained often: keep it small for the sequencer's scans.
    await q.query(`ALTER TABLE log_pending SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000)`);
    await q.query(`ALTER TABLE log_entries ALTER COLUMN integrated_at SET DEFAULT clock_timestamp()`);
    await q.query(`ALTER TABLE log_entries ADD COLUMN queued_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE log_entries DROP COLUMN queued_at`);
    await q.query(`DROP TABLE log_cursors, log_pending`);
  }
}
