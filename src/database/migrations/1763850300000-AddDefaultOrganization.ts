import { MigrationInterface, QueryRunner } from 'typeorm';

/** `PUT /user/{org}`: the caller's default organization is the one membership of theirs marked `is_default`. */
export class AddDefaultOrganization1763850300000 implements MigrationInterface {
  name = 'AddDefaultOrganization1763850300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE memberships ADD COLUMN is_default boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE memberships DROP COLUMN is_default`);
  }
}
