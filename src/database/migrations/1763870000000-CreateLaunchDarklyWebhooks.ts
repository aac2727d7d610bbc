import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * LaunchDarkly webhooks an org admin created, each bound to a flow and a trail name (or template):
 * `POST /webhooks/launch-darkly/{hook_uid}` finds its org by the hook's uid (128 random bits) and checks the
 * `X-LD-Signature` HMAC with the hook's secret, kept as is for that. A sibling of `sonar_webhooks` rather than a
 * `kind` column on it: the two kinds bind to different things (naming rules vs a flow and trail).
 */
export class CreateLaunchDarklyWebhooks1763870000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE launch_darkly_webhooks (
        id uuid NOT NULL,
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        hook_uid text NOT NULL,
        secret text NOT NULL,
        flow_name text NOT NULL,
        trail_name text NOT NULL,
        app_url text NOT NULL,
        created_by text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (id, org_id),
        CONSTRAINT launch_darkly_webhooks_uid_key UNIQUE (hook_uid, org_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE launch_darkly_webhooks`);
  }
}
