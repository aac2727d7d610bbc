import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outbox subscriptions and the wake-up signal of the outbox.
 *
 * - `outbox_subscriptions`: which event types someone consumes, per org (the actions module keeps the rows of
 *   its subscriber in step with its rules). The write paths append an event only if its org has a subscription
 *   for its type, checked in the writing statement itself (a primary-key probe).
 * - `outbox_subscription_version`: one row, bumped by every change of the subscriptions. The one-statement
 *   attestation group keeps a per-process copy of the subscriptions; when no org of a group subscribes, it
 *   writes without the event part of the statement, on the condition that the version is still the one its
 *   copy was read at (otherwise the statement writes nothing and the group takes the general path, which checks
 *   subscriptions row by row). Orgs without notification rules thus pay one read of a one-row table per group.
 * - A row trigger on `outbox_events` that sends `NOTIFY veritrail_outbox` for each new event: PostgreSQL delivers
 *   it when the inserting transaction commits (several in one transaction fold into one), and a relay that
 *   listens starts at once instead of at its next poll. No row, no trigger call.
 */
export class AddOutboxSubscriptions1763777000000 implements MigrationInterface {
  name = 'AddOutboxSubscriptions1763777000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE outbox_subscriptions (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        event_type text NOT NULL,
        subscriber text NOT NULL,
        PRIMARY KEY (org_id, event_type, subscriber)
      )`);
    await q.query(`
      CREATE TABLE outbox_subscription_version (
        id int PRIMARY KEY CHECK (id = 1),
        version bigint NOT NULL
      )`);
    await q.query(`INSERT INTO outbox_subscription_version (id, version) VALUES (1, 1)`);
    await q.query(`
      CREATE FUNCTION outbox_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('veritrail_outbox', '');
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER outbox_events_notify AFTER INSERT ON outbox_events
      FOR EACH ROW EXECUTE FUNCTION outbox_events_notify()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER outbox_events_notify ON outbox_events`);
    await q.query(`DROP FUNCTION outbox_events_notify()`);
    await q.query(`DROP TABLE outbox_subscription_version`);
    await q.query(`DROP TABLE outbox_subscriptions`);
  }
}
