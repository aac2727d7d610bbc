import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Fewer checks per attestation written, and a stronger guarantee.
 *
 * - `attestations (trail_id, flow_id)` now references `trails (id, flow_id)`: an attestation's flow must be its
 *   trail's flow. This one foreign key replaces two (`flow_id -> flows`, `trail_id -> trails`), so inserting an
 *   attestation runs one referential check instead of two; the flow is still reached through the trail, whose
 *   own key references `flows` (deleting a flow or trail still cascades).
 * - `attestations_org_idx (org_id, id)` is dropped: the one query by org and id finds the row by primary key,
 *   and every attestation written paid for the extra index entry.
 */
export class TightenAttestationKeys1763772000000 implements MigrationInterface {
  name = 'TightenAttestationKeys1763772000000';

  async up(q: QueryRunner): Promise<void> {
    // Replicas may be writing while this runs. Take every lock the migration needs at once, in the order the
    // write path takes them (flows, trails, attestations), so the two cannot deadlock; give up after 10 s
    // rather than hold writers queued behind a lock that does not come (the start then fails and is retried).
    // The new key is checked against every existing row: no statement time limit for that.
    await q.query(`SET LOCAL lock_timeout = '10s'`);
    await q.query(`SET LOCAL statement_timeout = 0`);
    await q.query(`LOCK TABLE flows, trails, attestations IN ACCESS EXCLUSIVE MODE`);
    await q.query(`CREATE UNIQUE INDEX trails_id_flow_key ON trails (id, flow_id)`);
    await q.query(
      `ALTER TABLE attestations ADD CONSTRAINT attestations_trail_flow_fkey
       FOREIGN KEY (trail_id, flow_id) REFERENCES trails (id, flow_id) ON DELETE CASCADE`,
    );
    await q.query(`ALTER TABLE attestations DROP CONSTRAINT attestations_trail_id_fkey`);
    await q.query(`ALTER TABLE attestations DROP CONSTRAINT attestations_flow_id_fkey`);
    await q.query(`DROP INDEX attestations_org_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`SET LOCAL lock_timeout = '10s'`);
    await q.query(`SET LOCAL statement_timeout = 0`);
    await q.query(`LOCK TABLE flows, trails, attestations IN ACCESS EXCLUSIVE MODE`);
    await q.query(`CREATE INDEX attestations_org_idx ON attestations (org_id, id)`);
    await q.query(
      `ALTER TABLE attestations ADD CONSTRAINT attestations_flow_id_fkey FOREIGN KEY (flow_id) REFERENCES flows(id) ON DELETE CASCADE`,
    );
    await q.query(
      `ALTER TABLE attestations ADD CONSTRAINT attestations_trail_id_fkey FOREIGN KEY (trail_id) REFERENCES trails(id) ON DELETE CASCADE`,
    );
    await q.query(`ALTER TABLE attestations DROP CONSTRAINT attestations_trail_flow_fkey`);
    await q.query(`DROP INDEX trails_id_flow_key`);
  }
}
