import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Environments, their snapshots and logical environments' members (module `environments`).
 *
 * Snapshot storage grows with what changed, not with the size of an environment: a snapshot row holds its
 * number, time, the two content hashes and its compliance summary, and what ran is kept as **runs**. A run is
 * one artifact (name, fingerprint) with one instance count and one compliance evaluation, present in the
 * consecutive snapshots `first_snapshot <= N < ended_snapshot` (`ended_snapshot` NULL while it still runs).
 * A new snapshot inserts a run for each artifact that started, changed count or changed evaluation, and sets
 * `ended_snapshot` on the runs it replaces; unchanged artifacts cost nothing. `ended_snapshot` is the only
 * column ever updated, once, from NULL: the content of every snapshot already taken never changes.
 *
 * `environments.set_hash` / `scale_hash` are the latest snapshot's content hashes (the sorted (name, digest)
 * set, and the same with instance counts), so an unchanged report is recognised from the environment row alone.
 */
export class CreateEnvironments1763776000000 implements MigrationInterface {
  name = 'CreateEnvironments1763776000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE environments (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        type text NOT NULL,
        description text NOT NULL DEFAULT '',
        include_scaling boolean NOT NULL DEFAULT false,
        require_provenance boolean NOT NULL DEFAULT false,
        tags jsonb NOT NULL DEFAULT '{}',
        created_by text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        last_reported_at timestamptz,
        last_snapshot integer NOT NULL DEFAULT 0,
        last_snapshot_at timestamptz,
        set_hash bytea,
        scale_hash bytea,
        compliant boolean,
        CONSTRAINT environments_org_name_key UNIQUE (org_id, name)
      ) WITH (fillfactor = 80)`);
    await q.query(`
      CREATE TABLE environment_members (
        org_id uuid NOT NULL,
        logical_id uuid NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        member_id uuid NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        joined_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, logical_id, member_id)
      )`);
    await q.query(`CREATE INDEX environment_members_member_idx ON environment_members (org_id, member_id)`);
    await q.query(`
      CREATE TABLE environment_snapshots (
        org_id uuid NOT NULL,
        environment_id uuid NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        number integer NOT NULL,
        created_at timestamptz NOT NULL,
        set_hash bytea NOT NULL,
        scale_hash bytea NOT NULL,
        artifact_count integer NOT NULL,
        instance_count integer NOT NULL,
        compliant boolean NOT NULL,
        compliant_count integer NOT NULL,
        non_compliant_count integer NOT NULL,
        unknown_count integer NOT NULL,
        reported_by text NOT NULL DEFAULT '',
        PRIMARY KEY (org_id, environment_id, number)
      )`);
    await q.query(`CREATE INDEX environment_snapshots_time_idx ON environment_snapshots (org_id, environment_id, created_at)`);
    await q.query(`
      CREATE TABLE environment_artifact_runs (
        org_id uuid NOT NULL,
        environment_id uuid NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        first_snapshot integer NOT NULL,
        artifact_key bytea NOT NULL,
        ended_snapshot integer,
        name text NOT NULL,
        fingerprint text NOT NULL,
        instance_count integer NOT NULL,
        instances jsonb NOT NULL,
        compliant boolean NOT NULL,
        has_provenance boolean NOT NULL,
        evaluation jsonb NOT NULL,
        evaluation_hash bytea NOT NULL,
        PRIMARY KEY (org_id, environment_id, first_snapshot, artifact_key)
      )`);
    await q.query(
      `CREATE INDEX environment_artifact_runs_end_idx ON environment_artifact_runs (org_id, environment_id, ended_snapshot)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['environment_artifact_runs', 'environment_snapshots', 'environment_members', 'environments']) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}
