import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ArtifactEvaluation } from '../domain/artifact-compliance';
import { artifactKey, ReportedInstance } from '../domain/report-summary';
import { OpenRun } from '../domain/snapshot-plan';

export interface NewSnapshot {
  orgId: string;
  environmentId: string;
  number: number;
  setHash: Buffer;
  scaleHash: Buffer;
  artifactCount: number;
  instanceCount: number;
  compliant: boolean;
  counts: { true: number; false: number; null: number };
  reportedBy: string;
  /** The policy versions it is judged by (none: the rule of environments without policies). */
  appliedPolicies?: ReadonlyArray<{ name: string; version: number }>;
}

export interface NewRun {
  name: string;
  fingerprint: string;
  instanceCount: number;
  instances: ReportedInstance[];
  evaluation: ArtifactEvaluation;
  evaluationHash: string;
}

/**
 * Owns `environment_snapshots` and `environment_artifact_runs` (layout in the migration): snapshots are
 * inserted, runs are inserted and ended, nothing else is ever written.
 */
@Injectable()
export class SnapshotRepository {
  /** The runs of the environment's latest snapshot. */
  async openRuns(manager: EntityManager, orgId: string, environmentId: string): Promise<OpenRun[]> {
    const rows: Array<{ name: string; fingerprint: string; instance_count: number; evaluation_hash: Buffer; compliant: boolean; has_provenance: boolean }> =
      await manager.query(
        `SELECT name, fingerprint, instance_count, evaluation_hash, compliant, has_provenance FROM environment_artifact_runs
         WHERE org_id = $1 AND environment_id = $2 AND ended_snapshot IS NULL`,
        [orgId, environmentId],
      );
    return rows.map((r) => ({
      name: r.name,
      fingerprint: r.fingerprint,
      instanceCount: r.instance_count,
      evaluationHash: r.evaluation_hash.toString('hex'),
      compliant: r.compliant,
      hasProvenance: r.has_provenance,
    }));
  }

  /** The runs of the latest snapshot with what they hold (to take the same content again, judged anew). */
  async openRunsWithInstances(manager: EntityManager, orgId: string, environmentId: string): Promise<Array<{ name: string; fingerprint: string; instanceCount: number; instances: ReportedInstance[] }>> {
    const rows: Array<{ name: string; fingerprint: string; instance_count: number; instances: ReportedInstance[] }> = await manager.query(
      `SELECT name, fingerprint, instance_count, instances FROM environment_artifact_runs
       WHERE org_id = $1 AND environment_id = $2 AND ended_snapshot IS NULL ORDER BY name, fingerprint`,
      [orgId, environmentId],
    );
    return rows.map((r) => ({ name: r.name, fingerprint: r.fingerprint, instanceCount: r.instance_count, instances: r.instances }));
  }

  /** Inserts the snapshot, timed after the caller took the environment row; returns its time (Unix seconds). */
  async insertSnapshot(manager: EntityManager, s: NewSnapshot): Promise<number> {
    const rows: Array<{ created_at: number }> = await manager.query(
      `INSERT INTO environment_snapshots (org_id, environment_id, number, created_at, set_hash, scale_hash, artifact_count,
         instance_count, compliant, compliant_count, non_compliant_count, unknown_count, reported_by, applied_policies)
       VALUES ($1, $2, $3, clock_timestamp(), $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       RETURNING EXTRACT(EPOCH FROM created_at)::float8 AS created_at`,
      [
        s.orgId,
        s.environmentId,
        s.number,
        s.setHash,
        s.scaleHash,
        s.artifactCount,
        s.instanceCount,
        s.compliant,
        s.counts.true,
        s.counts.false,
        s.counts.null,
        s.reportedBy,
        JSON.stringify(s.appliedPolicies ?? []),
      ],
    );
    return Number(rows[0].created_at);
  }

  /** Ends the open runs of these artifacts: snapshot `number` is the first without them. */
  async endRuns(manager: EntityManager, orgId: string, environmentId: string, runs: ReadonlyArray<{ name: string; fingerprint: string }>, number: number): Promise<void> {
    if (!runs.length) return;
    await manager.query(
      `UPDATE environment_artifact_runs SET ended_snapshot = $3
       WHERE org_id = $1 AND environment_id = $2 AND ended_snapshot IS NULL AND artifact_key = ANY($4::bytea[])`,
      [orgId, environmentId, number, runs.map((r) => artifactKey(r.name, r.fingerprint))],
    );
  }

  /** Begins runs at snapshot `number`, in one statement. */
  async beginRuns(manager: EntityManager, orgId: string, environmentId: string, number: number, runs: readonly NewRun[]): Promise<void> {
    if (!runs.length) return;
    await manager.query(
      `INSERT INTO environment_artifact_runs (org_id, environment_id, first_snapshot, artifact_key, name, fingerprint,
         instance_count, instances, compliant, has_provenance, evaluation, evaluation_hash)
       SELECT $1, $2, $3, r.key, r.name, r.fingerprint, r.instance_count, r.instances, r.compliant, r.has_provenance,
         r.evaluation, decode(r.evaluation_hash, 'hex')
       FROM unnest($4::bytea[], $5::text[], $6::text[], $7::int[], $8::jsonb[], $9::bool[], $10::bool[], $11::jsonb[], $12::text[])
         AS r(key, name, fingerprint, instance_count, instances, compliant, has_provenance, evaluation, evaluation_hash)`,
      [
        orgId,
        environmentId,
        number,
        runs.map((r) => artifactKey(r.name, r.fingerprint)),
        runs.map((r) => r.name),
        runs.map((r) => r.fingerprint),
        runs.map((r) => r.instanceCount),
        runs.map((r) => JSON.stringify(r.instances)),
        runs.map((r) => r.evaluation.compliant),
        runs.map((r) => r.evaluation.has_provenance),
        runs.map((r) => JSON.stringify(r.evaluation)),
        runs.map((r) => r.evaluationHash),
      ],
    );
  }
}
