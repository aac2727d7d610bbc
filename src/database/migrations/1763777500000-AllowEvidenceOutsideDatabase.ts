import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Attachments may live in an S3-compatible bucket (EVIDENCE_S3_BUCKET). Every attachment still has its
 * `evidence_blobs` row, which attestations reference, with its size; `content` is NULL when the bytes are in
 * the bucket (the object `sha256/<hex>`), and holds them when they are in PostgreSQL.
 */
export class AllowEvidenceOutsideDatabase1763777500000 implements MigrationInterface {
  name = 'AllowEvidenceOutsideDatabase1763777500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE evidence_blobs ALTER COLUMN content DROP NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    // Only possible when no attachment is kept outside PostgreSQL: copy them back first.
    await q.query(`ALTER TABLE evidence_blobs ALTER COLUMN content SET NOT NULL`);
  }
}
