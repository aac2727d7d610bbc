import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Backfills the evidence log of every org from the records stored before the upgrade, in the order they were
 * recorded (`created_at`, per kind): queues a reference for each trail moment that begun or updated a trail
 * (kind `trail`), each artifact report (`artifact`) and each environment snapshot (`environment_snapshot`),
 * exactly as their writers now do; the sequencer renders and indexes them after start-up. Attestations need
 * nothing here: the sequencer takes every flow from position 0 (migration 1764000000000). Records logged
 * already are skipped by the sequencer. Custom attestation type versions written before are not backfilled
 * (their entry is built by the writer, from the version it just wrote).
 *
 * Trail and artifact references carry the trail's id (as their writers' do), so a flow renamed before the
 * sequencer renders them cannot send it to another trail of the old name, or lose them. (First released without
 * it; the queue is drained within seconds of the start-up that runs this, so only the text changed.)
 *
 * Such entries prove integrity only from the upgrade on: the log shows a record has not changed since it was
 * logged, not that it was not changed before.
 */
export class BackfillEvidenceLog1764000200000 implements MigrationInterface {
  name = 'BackfillEvidenceLog1764000200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      INSERT INTO log_pending (org_id, kind, record_id, ref, queued_at)
      SELECT org_id, kind, record_id, ref, created_at FROM (
        SELECT m.org_id, 'trail' AS kind, m.trail_id::text || '@' || m.moment_number AS record_id,
               jsonb_build_object('org', o.name, 'flow', f.name, 'trail', t.name, 'trail_id', t.id, 'moment', m.moment_number) AS ref, m.created_at
        FROM trail_moments m JOIN trails t ON t.id = m.trail_id JOIN flows f ON f.id = t.flow_id JOIN organizations o ON o.id = m.org_id
        WHERE m.kind IN ('trail_begun', 'trail_updated', 'template_changed')
        UNION ALL
        SELECT a.org_id, 'artifact', a.id::text,
               jsonb_build_object('org', o.name, 'flow', f.name, 'trail', t.name, 'trail_id', t.id, 'moment', a.moment_number), a.created_at
        FROM artifacts a JOIN trails t ON t.id = a.trail_id JOIN flows f ON f.id = a.flow_id JOIN organizations o ON o.id = a.org_id
        UNION ALL
        SELECT s.org_id, 'environment_snapshot', s.environment_id::text || '#' || s.number,
               jsonb_build_object('org', o.name, 'environment', e.name, 'snapshot', s.number), s.created_at
        FROM environment_snapshots s JOIN environments e ON e.id = s.environment_id JOIN organizations o ON o.id = s.org_id
      ) r
      ORDER BY created_at`);
  }

  async down(): Promise<void> {
    // Queue rows are consumed by the sequencer; nothing to take back.
  }
}
