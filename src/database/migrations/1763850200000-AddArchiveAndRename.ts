import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Archiving and renaming flows (module `flows`) and environments (module `environments`).
 *
 * - `archived_at` / `archived_by` on both. An archived flow takes no new evidence: a statement-level trigger on
 *   `trail_moments` (every piece of evidence is a moment, whichever path wrote it, the one-statement attestation
 *   group included) refuses any statement that adds a moment to a trail of an archived flow, with SQLSTATE
 *   `VT400` and a message the service answers as a 400. One check per statement, not per row.
 * - `flow_renames` / `environment_renames`: every name a flow or environment had, with who renamed it and
 *   when. A request naming an old name is answered with a redirect to the current one (or, when another flow
 *   or environment has since taken the name, reaches that one). The evidence is never rewritten: rows refer to
 *   flows and environments by id, and snapshots keep the names they were taken with.
 */
export class AddArchiveAndRename1763850200000 implements MigrationInterface {
  name = 'AddArchiveAndRename1763850200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE flows ADD COLUMN archived_at timestamptz, ADD COLUMN archived_by text`);
    await q.query(`ALTER TABLE environments ADD COLUMN archived_at timestamptz, ADD COLUMN archived_by text`);
    for (const [table, owner] of [
      ['flow_renames', 'flows'],
      ['environment_renames', 'environments'],
    ]) {
      const column = owner === 'flows' ? 'flow_id' : 'environment_id';
      await q.query(`
        CREATE TABLE ${table} (
          org_id uuid NOT NULL,
          id uuid NOT NULL,
          old_name text NOT NULL,
          new_name text NOT NULL,
          ${column} uuid NOT NULL,
          renamed_at timestamptz NOT NULL DEFAULT now(),
          renamed_by text NOT NULL DEFAULT '',
          PRIMARY KEY (org_id, id),
          FOREIGN KEY (${column}, org_id) REFERENCES ${owner} (id, org_id) ON DELETE CASCADE
        )`);
      await q.query(`CREATE INDEX ${table}_old_name_idx ON ${table} (org_id, old_name, renamed_at)`);
      await q.query(`CREATE INDEX ${table}_target_idx ON ${table} (org_id, ${column}, renamed_at)`);
    }
    await q.query(`
      CREATE FUNCTION refuse_evidence_for_archived_flows() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE archived text;
      BEGIN
        SELECT f.name INTO archived FROM added m JOIN trails t ON t.id = m.trail_id JOIN flows f ON f.id = t.flow_id
         WHERE f.archived_at IS NOT NULL LIMIT 1;
        IF archived IS NOT NULL THEN
          RAISE EXCEPTION USING ERRCODE = 'VT400', MESSAGE = format('Flow ''%s'' is archived: it takes no new evidence', archived);
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER trail_moments_refuse_archived_flows AFTER INSERT ON trail_moments
      REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION refuse_evidence_for_archived_flows()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER trail_moments_refuse_archived_flows ON trail_moments`);
    await q.query(`DROP FUNCTION refuse_evidence_for_archived_flows()`);
    await q.query(`DROP TABLE environment_renames`);
    await q.query(`DROP TABLE flow_renames`);
    await q.query(`ALTER TABLE environments DROP COLUMN archived_at, DROP COLUMN archived_by`);
    await q.query(`ALTER TABLE flows DROP COLUMN archived_at, DROP COLUMN archived_by`);
  }
}
