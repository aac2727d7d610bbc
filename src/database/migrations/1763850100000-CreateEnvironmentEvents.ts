import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The environment event log (`GET /environments/{org}/{env}/events`, `.../auditlog`), module `environments`.
 *
 * One row per artifact that started, exited or changed its instance count in a snapshot, and one per change of
 * the environment's compliance, written by the transaction that makes the snapshot. `seq` is dense per
 * environment (1, 2, 3 ...) and grows with `snapshot` and `created_at`, so a page of any range (of snapshots or
 * of time) is a range of `seq` found by two index probes, whatever the log's length. `repo_names` are the repos
 * the artifact was reported from (its reports' `repo_info.name`), fixed when the event is written.
 */
export class CreateEnvironmentEvents1763850100000 implements MigrationInterface {
  name = 'CreateEnvironmentEvents1763850100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE environment_events (
        org_id uuid NOT NULL,
        environment_id uuid NOT NULL,
        seq bigint NOT NULL,
        snapshot integer NOT NULL,
        created_at timestamptz NOT NULL,
        type text NOT NULL,
        artifact_name text NOT NULL DEFAULT '',
        fingerprint text NOT NULL DEFAULT '',
        description text NOT NULL,
        flows text[] NOT NULL DEFAULT '{}',
        repo_names text[] NOT NULL DEFAULT '{}',
        artifact_compliance boolean,
        snapshot_compliance boolean NOT NULL,
        PRIMARY KEY (org_id, environment_id, seq),
        FOREIGN KEY (environment_id, org_id) REFERENCES environments (id, org_id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX environment_events_snapshot_idx ON environment_events (org_id, environment_id, snapshot, seq)`);
    await q.query(`CREATE INDEX environment_events_time_idx ON environment_events (org_id, environment_id, created_at, seq)`);
    await q.query(`CREATE INDEX environment_events_repo_idx ON environment_events USING gin (repo_names)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE environment_events`);
  }
}
