import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Attestation listing and evidence download.
 *
 * - `flows.last_attested_at`: the created_at of the flow's newest attestation. A new attestation takes
 *   `GREATEST(clock_timestamp(), last_attested_at)` while it holds the flow's counter row, so created_at never
 *   decreases along flow_seq. That makes a time span a contiguous flow_seq range (found with two index probes
 *   on attestations_flow_time_idx), even if the wall clock steps back.
 * - `attestations.evidence_content_type`: the media type the attachment was uploaded with (download header).
 * - `evidence_blobs.content` is stored uncompressed out of line, so downloads can read it in slices
 *   (substring on an EXTERNAL bytea does not decompress/fetch the whole value).
 */
export class AddAttestationEvidenceColumns1763771000000 implements MigrationInterface {
  name = 'AddAttestationEvidenceColumns1763771000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE flows ADD COLUMN last_attested_at timestamptz`);
    await q.query(`ALTER TABLE attestations ADD COLUMN evidence_content_type text`);
    await q.query(`ALTER TABLE evidence_blobs ALTER COLUMN content SET STORAGE EXTERNAL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE evidence_blobs ALTER COLUMN content SET STORAGE EXTENDED`);
    await q.query(`ALTER TABLE attestations DROP COLUMN evidence_content_type`);
    await q.query(`ALTER TABLE flows DROP COLUMN last_attested_at`);
  }
}
