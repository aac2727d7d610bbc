import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SonarQube webhooks an org admin created: `POST /webhooks/sonar/{hook_uid}` finds its org by the hook's uid
 * (128 random bits) and checks SonarQube's HMAC with the hook's secret, which is therefore kept as is (like a
 * notification target's secret). The uid is unique by construction; the unique key names `org_id` too, as every
 * tenant table's does, and lookups by uid use it as a prefix.
 */
export class CreateSonarWebhooks1763831000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sonar_webhooks (
        id uuid NOT NULL,
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        hook_uid text NOT NULL,
        secret text NOT NULL,
        flow_name_from text NOT NULL DEFAULT 'key' CHECK (flow_name_from IN ('key', 'name')),
        flow_name_prefix text NOT NULL DEFAULT '',
        flow_name_suffix text NOT NULL DEFAULT '',
        created_by text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (id, org_id),
        CONSTRAINT sonar_webhooks_uid_key UNIQUE (hook_uid, org_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sonar_webhooks`);
  }
}
