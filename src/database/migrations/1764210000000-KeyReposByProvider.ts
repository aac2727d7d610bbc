import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A repo is keyed by (org, provider, provider's id): provider ids are unique only within a provider, so GitHub's
 * repo 101 and GitLab's repo 101 are two repos, where the old key (org, external id) merged them into one row.
 * A `repo_info` without a provider keys on a NULL provider (NULLS NOT DISTINCT, so it still names one repo).
 * Existing rows are one per (org, external id), so the new key holds for them; an empty provider is stored as
 * NULL first, as the service now keys a `repo_info` with `provider: ""` like one without.
 */
export class KeyReposByProvider1764210000000 implements MigrationInterface {
  name = 'KeyReposByProvider1764210000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE repos SET provider = NULL WHERE provider = ''`);
    await q.query(`ALTER TABLE repos DROP CONSTRAINT repos_org_external_key`);
    await q.query(`ALTER TABLE repos ADD CONSTRAINT repos_org_provider_external_key UNIQUE NULLS NOT DISTINCT (org_id, provider, external_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    const [clash]: Array<{ org_id: string; external_id: string }> = await q.query(
      `SELECT org_id, external_id FROM repos GROUP BY org_id, external_id HAVING count(*) > 1 LIMIT 1`,
    );
    if (clash) {
      throw new Error(
        `Cannot key repos by (org, external id) again: org ${clash.org_id} has repos of several providers with id '${clash.external_id}'`,
      );
    }
    await q.query(`ALTER TABLE repos DROP CONSTRAINT repos_org_provider_external_key`);
    await q.query(`ALTER TABLE repos ADD CONSTRAINT repos_org_external_key UNIQUE (org_id, external_id)`);
  }
}
