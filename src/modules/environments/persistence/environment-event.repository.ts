import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { LogEntry } from '../domain/environment-log';

/**
 * Owns `environment_events`: the environment's event log, appended by the transaction that makes a snapshot
 * (which holds the environment's row, so `seq` is dense per environment). An entry's flows and repos are those
 * that reported its fingerprint, looked up as it is written (by the artifacts' fingerprint index).
 */
@Injectable()
export class EnvironmentEventRepository {
  async append(manager: EntityManager, orgId: string, environmentId: string, snapshot: number, entries: readonly LogEntry[]): Promise<void> {
    if (!entries.length) return;
    await manager.query(
      `INSERT INTO environment_events (org_id, environment_id, seq, snapshot, created_at, type, artifact_name, fingerprint,
         description, flows, repo_names, artifact_compliance, snapshot_compliance)
       SELECT $1, $2, base.n + e.ord, $3, s.created_at, e.type, e.artifact_name, e.fingerprint, e.description,
         ARRAY(SELECT DISTINCT f.name FROM artifacts a JOIN flows f ON f.id = a.flow_id
               WHERE e.fingerprint <> '' AND a.org_id = $1 AND a.fingerprint = e.fingerprint ORDER BY f.name),
         ARRAY(SELECT DISTINCT a.repo_info->>'name' FROM artifacts a
               WHERE e.fingerprint <> '' AND a.org_id = $1 AND a.fingerprint = e.fingerprint AND a.repo_info->>'name' IS NOT NULL),
         e.artifact_compliance, e.snapshot_compliance
       FROM ROWS FROM (jsonb_to_recordset($4::jsonb) AS (type text, artifact_name text, fingerprint text, description text,
         artifact_compliance boolean, snapshot_compliance boolean))
         WITH ORDINALITY AS e(type, artifact_name, fingerprint, description, artifact_compliance, snapshot_compliance, ord)
       CROSS JOIN (SELECT COALESCE(max(seq), 0) AS n FROM environment_events WHERE org_id = $1 AND environment_id = $2) base
       JOIN environment_snapshots s ON s.org_id = $1 AND s.environment_id = $2 AND s.number = $3`,
      [
        orgId,
        environmentId,
        snapshot,
        JSON.stringify(
          entries.map((e) => ({
            type: e.type,
            artifact_name: e.artifactName,
            fingerprint: e.fingerprint,
            description: e.description,
            artifact_compliance: e.artifactCompliance,
            snapshot_compliance: e.snapshotCompliance,
          })),
        ),
      ],
    );
  }

  /**
   * A "renamed" entry: no artifact, the environment's latest snapshot number and compliance (0 and false before
   * its first snapshot), timed now. The caller holds the environment's row, so `seq` stays dense and grows with
   * `snapshot` and `created_at` like the entries of snapshots.
   */
  async appendRenamed(manager: EntityManager, orgId: string, env: { id: string; lastSnapshot: number; compliant: boolean }, description: string): Promise<void> {
    await manager.query(
      `INSERT INTO environment_events (org_id, environment_id, seq, snapshot, created_at, type, description, snapshot_compliance)
       SELECT $1, $2, COALESCE(max(seq), 0) + 1, $3, clock_timestamp(), 'renamed', $4, $5
       FROM environment_events WHERE org_id = $1 AND environment_id = $2`,
      [orgId, env.id, env.lastSnapshot, description, env.compliant],
    );
  }
}
