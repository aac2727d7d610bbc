import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Org-wide reads of attestations: `GET /attestations/{org}` lists an org's attestations newest first
 * (`attestations_org_time_idx`), and `list_attestations_for_criteria` finds them by the commit they name
 * (`attestations_org_commit_idx`, only rows that name one).
 */
export class IndexAttestationsByOrgTimeAndCommit1763830000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX attestations_org_time_idx ON attestations (org_id, created_at DESC, id DESC)`);
    await q.query(
      `CREATE INDEX attestations_org_commit_idx ON attestations (org_id, (git_commit_info->>'sha1')) WHERE git_commit_info IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX attestations_org_commit_idx`);
    await q.query(`DROP INDEX attestations_org_time_idx`);
  }
}
