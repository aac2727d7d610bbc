import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Actions (notification rules) and their deliveries.
 *
 * - `actions`: numbered per org (1, 2, ... never reused: a deleted action keeps its row, with `deleted_at`);
 *   one live action per name. `scopes` holds the flow names of a flow action, the environment names of an
 *   environment action. `targets` holds the targets as sent (webhook secrets included: they are needed to
 *   sign, so they cannot be hashed). `last_success_at` / `last_failure_at` are the times of the latest
 *   successful and failed delivery attempts; the action is failing while the latest attempt failed.
 * - `action_deliveries`: one per (event, action, target); its id is the idempotency id a receiver sees on every
 *   attempt. `lease_until` marks an attempt in flight (so two processes do not send it at once); `updated_at`
 *   moves on every attempt, so a pending delivery nobody has touched for long can be found and sent again.
 * - `action_delivery_attempts`: every attempt with its outcome, for `GET /actions/{org}/{number}/deliveries`.
 * - `action_trail_status`: the last compliance status seen per trail by the compliance watch (trail compliance
 *   triggers), with the moment it was seen at.
 */
export class CreateActions1763777100000 implements MigrationInterface {
  name = 'CreateActions1763777100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE actions (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        number int NOT NULL CHECK (number > 0),
        name text NOT NULL,
        type text NOT NULL CHECK (type IN ('env', 'flow')),
        targets jsonb NOT NULL,
        triggers text[] NOT NULL,
        scopes text[] NOT NULL,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL,
        last_modified_at timestamptz NOT NULL,
        deleted_at timestamptz,
        last_success_at timestamptz,
        last_failure_at timestamptz,
        CONSTRAINT actions_org_number_key UNIQUE (org_id, number)
      )`);
    await q.query(`CREATE UNIQUE INDEX actions_org_live_name_key ON actions (org_id, name) WHERE deleted_at IS NULL`);
    await q.query(`
      CREATE TABLE action_deliveries (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        action_id uuid NOT NULL REFERENCES actions(id) ON DELETE CASCADE,
        target_index int NOT NULL,
        trigger text NOT NULL,
        event jsonb NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'dead')),
        attempts int NOT NULL DEFAULT 0,
        lease_until timestamptz,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        completed_at timestamptz
      )`);
    await q.query(`CREATE INDEX action_deliveries_action_idx ON action_deliveries (org_id, action_id, created_at)`);
    await q.query(`CREATE INDEX action_deliveries_pending_idx ON action_deliveries (updated_at) WHERE status = 'pending'`);
    await q.query(`
      CREATE TABLE action_delivery_attempts (
        id bigserial PRIMARY KEY,
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        action_id uuid NOT NULL REFERENCES actions(id) ON DELETE CASCADE,
        delivery_id uuid NOT NULL REFERENCES action_deliveries(id) ON DELETE CASCADE,
        attempt int NOT NULL,
        succeeded boolean NOT NULL,
        status_code int,
        error text,
        started_at timestamptz NOT NULL,
        duration_ms int NOT NULL
      )`);
    await q.query(`CREATE INDEX action_delivery_attempts_action_idx ON action_delivery_attempts (org_id, action_id, id)`);
    await q.query(`CREATE INDEX action_delivery_attempts_delivery_idx ON action_delivery_attempts (delivery_id)`);
    await q.query(`
      CREATE TABLE action_trail_status (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        trail_id uuid NOT NULL REFERENCES trails(id) ON DELETE CASCADE,
        moment_number int NOT NULL,
        status text NOT NULL,
        PRIMARY KEY (org_id, trail_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE action_trail_status`);
    await q.query(`DROP TABLE action_delivery_attempts`);
    await q.query(`DROP TABLE action_deliveries`);
    await q.query(`DROP TABLE actions`);
  }
}
