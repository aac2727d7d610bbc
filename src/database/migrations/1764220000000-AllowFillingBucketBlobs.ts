import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An `evidence_blobs` row written while attachments were in a bucket has `content` NULL. Back on PostgreSQL, the
 * bytes must be able to come home: the append-only trigger now lets exactly one change through, a NULL
 * `content` given the bytes its row already vouches for (their SHA-256 is the row's key and their length its
 * size; nothing else on the row changes). Every other UPDATE, and every DELETE, is refused as before. This is
 * what `PostgresEvidenceStore.put` does when the same bytes are attached again, and what a copy of the bucket's
 * objects into `evidence_blobs` does (docs/choices.md, "Attachments in a bucket").
 */
export class AllowFillingBucketBlobs1764220000000 implements MigrationInterface {
  name = 'AllowFillingBucketBlobs1764220000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION evidence_blob_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' AND OLD.content IS NULL AND NEW.content IS NOT NULL
           AND NEW.sha256 = OLD.sha256 AND NEW.size = OLD.size AND NEW.created_at = OLD.created_at
           AND octet_length(NEW.content) = OLD.size AND sha256(NEW.content) = OLD.sha256 THEN
          RETURN NEW;
        END IF;
        RAISE EXCEPTION 'append-only: % on % is refused (evidence is never changed or removed once recorded; only a blob kept outside the database may be given its own bytes)', TG_OP, TG_TABLE_NAME
          USING ERRCODE = 'restrict_violation';
      END $$`);
    await q.query(`DROP TRIGGER evidence_blobs_append_only ON evidence_blobs`);
    await q.query(`CREATE TRIGGER evidence_blobs_append_only BEFORE UPDATE OR DELETE ON evidence_blobs FOR EACH ROW EXECUTE FUNCTION evidence_blob_append_only()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER evidence_blobs_append_only ON evidence_blobs`);
    await q.query(`CREATE TRIGGER evidence_blobs_append_only BEFORE UPDATE OR DELETE ON evidence_blobs FOR EACH ROW EXECUTE FUNCTION evidence_append_only()`);
    await q.query(`DROP FUNCTION evidence_blob_append_only()`);
  }
}
