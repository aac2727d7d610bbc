import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * At most one default organization per user: two concurrent `PUT /user/{org}` could each clear the default the
 * other had not committed yet, leaving two. The service now locks the user's memberships before it sets one;
 * memberships already marked twice keep one default, the oldest membership's (then the lowest org id), so the
 * repair is the same on every copy. No unique index says it: one over a user's memberships would span orgs, and
 * every unique key of a tenant table holds `org_id` (the way to sharding by org; docs/scaling.md). Also an index by
 * user: setting a default locks the user's memberships first, and finding them read every membership without it
 * (the primary key starts with the org).
 */
export class OneDefaultOrganization1764191100000 implements MigrationInterface {
  name = 'OneDefaultOrganization1764191100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      UPDATE memberships m SET is_default = false
        FROM (SELECT org_id, user_id,
                     row_number() OVER (PARTITION BY user_id ORDER BY created_at, org_id) AS n
                FROM memberships WHERE is_default) d
       WHERE m.org_id = d.org_id AND m.user_id = d.user_id AND d.n > 1`);
    await q.query(`CREATE INDEX memberships_user_idx ON memberships (user_id, org_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX memberships_user_idx`);
  }
}
