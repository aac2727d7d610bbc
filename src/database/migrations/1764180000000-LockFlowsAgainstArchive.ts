import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The archived-flow check (AddArchiveAndRename) read `flows.archived_at` without a lock, and archiving (an UPDATE
 * of a non-key column) did not conflict with writers: an archive could answer 200 while a write that had passed
 * the check was still in flight, and that write then committed into the archived flow.
 *
 * Now the check first takes the flows of the statement's moments FOR KEY SHARE (id order), then reads
 * `archived_at` in a new statement, so it sees an archive that committed while it waited. Archiving takes its
 * flow FOR UPDATE first (FlowRepository.archive), which waits for every writer holding the row. KEY SHARE
 * conflicts with nothing else a writer takes (FOR NO KEY UPDATE of template uploads, tags, renames; the KEY
 * SHARE of foreign keys), and the archive takes no other lock, so no lock cycle is possible with it.
 */
export class LockFlowsAgainstArchive1764180000000 implements MigrationInterface {
  name = 'LockFlowsAgainstArchive1764180000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION refuse_evidence_for_archived_flows() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE archived text;
      BEGIN
        PERFORM 1 FROM flows f
         WHERE f.id IN (SELECT t.flow_id FROM added m JOIN trails t ON t.id = m.trail_id)
         ORDER BY f.id FOR KEY SHARE OF f;
        SELECT f.name INTO archived FROM added m JOIN trails t ON t.id = m.trail_id JOIN flows f ON f.id = t.flow_id
         WHERE f.archived_at IS NOT NULL LIMIT 1;
        IF archived IS NOT NULL THEN
          RAISE EXCEPTION USING ERRCODE = 'VT400', MESSAGE = format('Flow ''%s'' is archived: it takes no new evidence', archived);
        END IF;
        RETURN NULL;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION refuse_evidence_for_archived_flows() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE archived text;
      BEGIN
        SELECT f.name INTO archived FROM added m JOIN trails t ON t.id = m.trail_id JOIN flows f ON f.id = t.flow_id
         WHERE f.archived_at IS NOT NULL LIMIT 1;
        IF archived IS NOT NULL THEN
          RAISE EXCEPTION USING ERRCODE = 'VT400', MESSAGE = format('Flow ''%s'' is archived: it takes no new evidence', archived);
        END IF;
        RETURN NULL;
      END $$`);
  }
}
