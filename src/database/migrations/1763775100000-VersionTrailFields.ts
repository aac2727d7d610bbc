import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A trail's own fields (description, commit, repo, user data, origin and external URLs) can be changed by a later
 * `begin trail`; the trail row holds only their latest values. So that a trail as of moment N can be rebuilt
 * exactly (an evaluation's input, replayed later), the moments that set them (`trail_begun`, `trail_updated`)
 * now carry a copy in `fields`, and a reader takes the latest such moment at or before N. Existing trails get
 * their current values on their latest such moment (nothing older is known).
 */
export class VersionTrailFields1763775100000 implements MigrationInterface {
  name = 'VersionTrailFields1763775100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE trail_moments ADD COLUMN fields jsonb`);
    await q.query(`CREATE INDEX trail_moments_fields_idx ON trail_moments (trail_id, moment_number) WHERE fields IS NOT NULL`);
    await q.query(`
      UPDATE trail_moments m SET fields = jsonb_build_object(
          'description', t.description, 'git_commit_info', t.git_commit_info, 'repo_info', t.repo_info,
          'user_data', t.user_data, 'origin_url', t.origin_url, 'external_urls', t.external_urls)
      FROM trails t,
        LATERAL (SELECT max(x.moment_number) AS n FROM trail_moments x
                 WHERE x.trail_id = t.id AND x.kind IN ('trail_begun', 'trail_updated')) last
      WHERE m.trail_id = t.id AND m.moment_number = last.n`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE trail_moments DROP COLUMN fields`);
  }
}
