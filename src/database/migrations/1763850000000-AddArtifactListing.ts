import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reading artifacts back (module `artifact-catalog`) and searching them by sha prefix (module `search`).
 *
 * Artifact lists are newest first and paged by number, so each report gets two dense sequence numbers, like
 * attestations' `flow_seq`: `org_seq` (1, 2, 3 ... per org) and `flow_seq` (per flow), taken from
 * `artifact_sequences` (one counter row per org and per flow, `scope_id` being the org's or the flow's id).
 * Page P is then a range of numbers read from an index, as cheap at the end of a million rows as at the start.
 *
 * Search finds fingerprints and commits by prefix: `text_pattern_ops` indexes serve `LIKE 'abcde%'` whatever
 * the database's collation. Where an artifact runs is found by fingerprint in `environment_artifact_runs`.
 */
export class AddArtifactListing1763850000000 implements MigrationInterface {
  name = 'AddArtifactListing1763850000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE artifact_sequences (
        org_id uuid NOT NULL,
        scope_id uuid NOT NULL,
        last_seq bigint NOT NULL,
        PRIMARY KEY (org_id, scope_id)
      )`);
    await q.query(`ALTER TABLE artifacts ADD COLUMN org_seq bigint, ADD COLUMN flow_seq bigint`);
    await q.query(`
      WITH numbered AS (
        SELECT id, org_id,
          row_number() OVER (PARTITION BY org_id ORDER BY created_at, id) AS o,
          row_number() OVER (PARTITION BY flow_id ORDER BY created_at, id) AS f
        FROM artifacts)
      UPDATE artifacts a SET org_seq = n.o, flow_seq = n.f FROM numbered n WHERE a.id = n.id AND a.org_id = n.org_id`);
    await q.query(`INSERT INTO artifact_sequences (org_id, scope_id, last_seq) SELECT org_id, org_id, max(org_seq) FROM artifacts GROUP BY org_id`);
    await q.query(
      `INSERT INTO artifact_sequences (org_id, scope_id, last_seq) SELECT org_id, flow_id, max(flow_seq) FROM artifacts GROUP BY org_id, flow_id`,
    );
    await q.query(`ALTER TABLE artifacts ALTER COLUMN org_seq SET NOT NULL, ALTER COLUMN flow_seq SET NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX artifacts_org_seq_key ON artifacts (org_id, org_seq)`);
    await q.query(`CREATE UNIQUE INDEX artifacts_flow_seq_key ON artifacts (flow_id, flow_seq, org_id)`);
    await q.query(`CREATE INDEX artifacts_repo_name_idx ON artifacts (org_id, (repo_info->>'name'), org_seq)`);
    await q.query(`CREATE INDEX artifacts_fingerprint_prefix_idx ON artifacts (org_id, fingerprint text_pattern_ops)`);
    await q.query(`CREATE INDEX artifacts_commit_prefix_idx ON artifacts (org_id, git_commit text_pattern_ops) WHERE git_commit IS NOT NULL`);
    await q.query(`CREATE INDEX artifacts_commit_idx ON artifacts (flow_id, git_commit, org_id)`);
    // Builds (`GET /builds/{org}`) are the org's reports in a time window.
    await q.query(`CREATE INDEX artifacts_org_created_idx ON artifacts (org_id, created_at)`);
    await q.query(`CREATE INDEX environment_artifact_runs_fingerprint_idx ON environment_artifact_runs (org_id, fingerprint)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX environment_artifact_runs_fingerprint_idx`);
    for (const index of ['artifacts_org_created_idx', 'artifacts_commit_idx', 'artifacts_commit_prefix_idx', 'artifacts_fingerprint_prefix_idx', 'artifacts_repo_name_idx', 'artifacts_flow_seq_key', 'artifacts_org_seq_key']) {
      await q.query(`DROP INDEX ${index}`);
    }
    await q.query(`ALTER TABLE artifacts DROP COLUMN org_seq, DROP COLUMN flow_seq`);
    await q.query(`DROP TABLE artifact_sequences`);
  }
}
