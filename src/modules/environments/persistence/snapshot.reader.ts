import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { atOrBefore } from '../../../common/moments/instant-sql';
import { MAX_MOMENT, MomentSelector } from '../../../common/moments/moment-expression';
import { ArtifactEvaluation } from '../domain/artifact-compliance';
import { ReportedInstance } from '../domain/report-summary';
import { StoredRun } from '../domain/snapshot-view';

/** A snapshot row. Times are Unix seconds. */
export interface SnapshotRow {
  number: number;
  created_at: number;
  /** When the next snapshot was taken; null for the latest. */
  next_created_at: number | null;
  compliant: boolean;
  artifact_count: number;
  instance_count: number;
  compliant_count: number;
  non_compliant_count: number;
  unknown_count: number;
  /** The policy versions the snapshot was judged by (`[]` without policies). */
  applied_policies: Array<{ name: string; version: number }>;
}

const SNAPSHOT_COLUMNS = `s.number, EXTRACT(EPOCH FROM s.created_at)::float8 AS created_at,
  (SELECT EXTRACT(EPOCH FROM n.created_at)::float8 FROM environment_snapshots n
   WHERE n.org_id = s.org_id AND n.environment_id = s.environment_id AND n.number = s.number + 1) AS next_created_at,
  s.compliant, s.artifact_count, s.instance_count, s.compliant_count, s.non_compliant_count, s.unknown_count, s.applied_policies`;

const RUN_COLUMNS = 'name, fingerprint, instance_count, first_snapshot, ended_snapshot, instances, evaluation';

/** Read model of snapshots and their runs. */
@Injectable()
export class SnapshotReader {
  constructor(private readonly dataSource: DataSource) {}

  /** The snapshot number an expression selects among 1..`latest`, or null when it selects none. */
  async resolve(orgId: string, environmentId: string, latest: number, selector: MomentSelector): Promise<number | null> {
    switch (selector.kind) {
      case 'number':
        return selector.number <= Math.min(latest, MAX_MOMENT) ? selector.number : null;
      case 'back':
        return latest - selector.steps >= 1 ? latest - selector.steps : null;
      default: {
        const condition = atOrBefore(selector, 'created_at', 3);
        const rows: Array<{ number: number }> = await this.dataSource.query(
          `SELECT number FROM environment_snapshots WHERE org_id = $1 AND environment_id = $2 AND ${condition.sql}
           ORDER BY created_at DESC, number DESC LIMIT 1`,
          [orgId, environmentId, ...condition.params],
        );
        return rows[0]?.number ?? null;
      }
    }
  }

  async snapshot(orgId: string, environmentId: string, number: number): Promise<SnapshotRow | null> {
    const rows: SnapshotRow[] = await this.dataSource.query(
      `SELECT ${SNAPSHOT_COLUMNS} FROM environment_snapshots s WHERE s.org_id = $1 AND s.environment_id = $2 AND s.number = $3`,
      [orgId, environmentId, number],
    );
    return rows.map(numbers)[0] ?? null;
  }

  /** Snapshots `from`..`to` (inclusive), newest first unless `oldestFirst`, one page of them. */
  async list(
    orgId: string,
    environmentId: string,
    range: { from: number; to: number },
    page: { offset: number; limit: number },
    oldestFirst: boolean,
  ): Promise<SnapshotRow[]> {
    const rows: SnapshotRow[] = await this.dataSource.query(
      `SELECT ${SNAPSHOT_COLUMNS} FROM environment_snapshots s
       WHERE s.org_id = $1 AND s.environment_id = $2 AND s.number BETWEEN $3 AND $4
       ORDER BY s.number ${oldestFirst ? 'ASC' : 'DESC'} LIMIT $5 OFFSET $6`,
      [orgId, environmentId, range.from, range.to, page.limit, page.offset],
    );
    return rows.map(numbers);
  }

  /** The runs that cover snapshot `number` or the one before it (what snapshot `number` shows, with its changes). */
  async runsAround(orgId: string, environmentId: string, number: number): Promise<StoredRun[]> {
    return this.runs(
      `first_snapshot <= $3 AND (ended_snapshot IS NULL OR ended_snapshot >= $3)`,
      [orgId, environmentId, number],
    );
  }

  /** The runs that cover snapshot `number`. */
  async runsAt(orgId: string, environmentId: string, number: number): Promise<StoredRun[]> {
    return this.runs(`first_snapshot <= $3 AND (ended_snapshot IS NULL OR ended_snapshot > $3)`, [orgId, environmentId, number]);
  }

  private async runs(where: string, params: unknown[]): Promise<StoredRun[]> {
    const rows: Array<{
      name: string;
      fingerprint: string;
      instance_count: number;
      first_snapshot: number;
      ended_snapshot: number | null;
      instances: ReportedInstance[];
      evaluation: ArtifactEvaluation;
    }> = await this.dataSource.query(
      `SELECT ${RUN_COLUMNS} FROM environment_artifact_runs WHERE org_id = $1 AND environment_id = $2 AND ${where}`,
      params,
    );
    return rows.map((r) => ({
      name: r.name,
      fingerprint: r.fingerprint,
      instanceCount: r.instance_count,
      firstSnapshot: r.first_snapshot,
      endedSnapshot: r.ended_snapshot,
      instances: r.instances,
      evaluation: r.evaluation,
    }));
  }
}

function numbers(row: SnapshotRow): SnapshotRow {
  return {
    ...row,
    created_at: Number(row.created_at),
    next_created_at: row.next_created_at === null ? null : Number(row.next_created_at),
  };
}
