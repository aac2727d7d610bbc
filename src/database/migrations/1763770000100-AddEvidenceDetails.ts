import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Fields the reference (and the open-source CLI) send that the first evidence schema had no place for:
 * artifact `description`, `user_data`, `commits_list`, `is_compliant`; the flow's `repo_url`.
 */
export class AddEvidenceDetails1763770000100 implements MigrationInterface {
  name = 'AddEvidenceDetails1763770000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE artifacts
        ADD COLUMN description text NOT NULL DEFAULT '',
        ADD COLUMN user_data jsonb,
        ADD COLUMN commits_list jsonb,
        ADD COLUMN is_compliant boolean`);
    await q.query(`ALTER TABLE flows ADD COLUMN repo_url text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE flows DROP COLUMN repo_url`);
    await q.query(`
      ALTER TABLE artifacts
        DROP COLUMN description, DROP COLUMN user_data, DROP COLUMN commits_list, DROP COLUMN is_compliant`);
  }
}
