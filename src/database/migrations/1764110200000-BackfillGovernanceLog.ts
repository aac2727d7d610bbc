import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Backfills the evidence log with the policy versions stored before they were logged (kind `policy_version`)
 * and the control versions kept when `control_versions` began (`change: "recorded"`, kind `control_version`),
 * in the order they were recorded: a reference per record in the log's queue, as migration 1764000200000 does
 * for trails, artifacts and snapshots; the owning modules' renderers read each through its per-version route's
 * query once the sequencer runs. Records logged already are skipped by the sequencer. Such entries prove
 * integrity only from the upgrade on.
 */
export class BackfillGovernanceLog1764110200000 implements MigrationInterface {
  name = 'BackfillGovernanceLog1764110200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      INSERT INTO log_pending (org_id, kind, record_id, ref, queued_at)
      SELECT org_id, kind, record_id, ref, created_at FROM (
        SELECT v.org_id, 'policy_version' AS kind, p.name || '@' || v.version AS record_id,
               jsonb_build_object('org', o.name, 'policy', p.name, 'version', v.version) AS ref, v.created_at
        FROM policy_versions v JOIN policies p ON p.org_id = v.org_id AND p.id = v.policy_id JOIN organizations o ON o.id = v.org_id
        UNION ALL
        SELECT c.org_id, 'control_version', c.identifier || '@' || c.version,
               jsonb_build_object('org', o.name, 'identifier', c.identifier, 'version', c.version), c.changed_at
        FROM control_versions c JOIN organizations o ON o.id = c.org_id
        WHERE c.change = 'recorded'
      ) r
      ORDER BY created_at`);
  }

  async down(): Promise<void> {
    // Queue rows are consumed by the sequencer; nothing to take back.
  }
}
