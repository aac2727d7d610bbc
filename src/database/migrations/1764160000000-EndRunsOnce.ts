import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `environment_artifact_runs` holds what each snapshot contains (an artifact runs from its `first_snapshot` up
 * to its `ended_snapshot`), so it is evidence like the snapshots themselves. The one change the service makes
 * to a row is ending it: `ended_snapshot` set once, from null. A trigger now refuses every other UPDATE (any
 * other column, or an end changed or taken back), every DELETE and TRUNCATE, naming the rule as the other
 * evidence tables' triggers do.
 */
export class EndRunsOnce1764160000000 implements MigrationInterface {
  name = 'EndRunsOnce1764160000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION environment_runs_end_once() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' AND OLD.ended_snapshot IS NULL AND NEW.ended_snapshot IS NOT NULL
           AND (to_jsonb(NEW) - 'ended_snapshot') = (to_jsonb(OLD) - 'ended_snapshot') THEN
          RETURN NEW;
        END IF;
        RAISE EXCEPTION 'append-only: % on environment_artifact_runs is refused (a run is only ever ended, once)', TG_OP;
      END $$`);
    await q.query(`
      CREATE TRIGGER environment_artifact_runs_end_once BEFORE UPDATE OR DELETE ON environment_artifact_runs
      FOR EACH ROW EXECUTE FUNCTION environment_runs_end_once()`);
    await q.query(`
      CREATE TRIGGER environment_artifact_runs_no_truncate BEFORE TRUNCATE ON environment_artifact_runs
      FOR EACH STATEMENT EXECUTE FUNCTION environment_runs_end_once()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER environment_artifact_runs_no_truncate ON environment_artifact_runs`);
    await q.query(`DROP TRIGGER environment_artifact_runs_end_once ON environment_artifact_runs`);
    await q.query(`DROP FUNCTION environment_runs_end_once()`);
  }
}
