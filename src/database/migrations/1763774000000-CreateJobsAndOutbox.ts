import { MigrationInterface, QueryRunner } from 'typeorm';

/** pg-boss's own schema version this migration installs; a newer pg-boss needs a migration of its own. */
const PGBOSS_SCHEMA_VERSION = 24;

/**
 * Jobs and the outbox, both in PostgreSQL.
 *
 * - The `pgboss` schema of the job library (pg-boss 10, schema version 24), installed here rather than by the
 *   library at start-up, so that it is created under the migration lock like every other table and the service
 *   starts pg-boss with `migrate: false`. The SQL is the library's own construction plan, without its
 *   BEGIN/COMMIT (the migration runs in a transaction of its own).
 * - `outbox_events`: events raised by a change, written in the same transaction as the change, so an event is
 *   never lost and never raised for a change that rolled back. Consumers (notification delivery) read them in
 *   `id` order and mark what they have handed on.
 */
export class CreateJobsAndOutbox1763774000000 implements MigrationInterface {
  name = 'CreateJobsAndOutbox1763774000000';

  async up(q: QueryRunner): Promise<void> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const PgBoss = require('pg-boss');
    const version: number = require('pg-boss/version.json').schema;
    if (version !== PGBOSS_SCHEMA_VERSION) {
      throw new Error(`pg-boss schema version ${version} is installed by no migration (this one installs ${PGBOSS_SCHEMA_VERSION})`);
    }
    const plan: string = PgBoss.getConstructionPlans('pgboss');
    await q.query(plan.replace(/^\s*BEGIN;\s*$/m, '').replace(/^\s*COMMIT;\s*$/m, ''));

    await q.query(`
      CREATE TABLE outbox_events (
        id bigserial PRIMARY KEY,
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        type text NOT NULL,
        subject jsonb NOT NULL DEFAULT '{}',
        payload jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        dispatched_at timestamptz
      )`);
    await q.query(`CREATE INDEX outbox_events_pending_idx ON outbox_events (id) WHERE dispatched_at IS NULL`);
    await q.query(`CREATE INDEX outbox_events_org_idx ON outbox_events (org_id, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE outbox_events`);
    await q.query(`DROP SCHEMA pgboss CASCADE`);
  }
}
