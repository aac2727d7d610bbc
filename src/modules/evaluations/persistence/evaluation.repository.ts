import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { canonicalJson } from '../domain/canonical-json';
import { EvaluationError } from '../domain/evaluation-error';
import type { PinnedTrail } from '../../trails/trails.module';

/** How the `trails` column stores the trails an evaluation used (snake case: this is the database edge). */
interface StoredTrail {
  flow_name: string;
  trail_name: string;
  moment_number: number;
  /**
   * The trail itself (evaluations made before it was kept have none): a replay or a recovery reads the trail by
   * id, so a flow renamed since, or a new flow that took the old name, changes nothing; the names are those the
   * evaluation saw.
   */
  trail_id?: string;
}

const toStored = (trails: readonly PinnedTrail[]): StoredTrail[] =>
  trails.map((t) => ({ flow_name: t.flowName, trail_name: t.trailName, moment_number: t.momentNumber, ...(t.trailId ? { trail_id: t.trailId } : {}) }));

/** A row as read: its stored trails as the trails module's PinnedTrail. */
function fromStored(row: Omit<EvaluationRow, 'trails'> & { trails: StoredTrail[] }): EvaluationRow {
  return {
    ...row,
    trails: row.trails.map((t) => ({ flowName: t.flow_name, trailName: t.trail_name, momentNumber: t.moment_number, ...(t.trail_id ? { trailId: t.trail_id } : {}) })),
  };
}

/** What a decision asks for (as the request said it). */
export interface DecisionRequest {
  control: string;
  name: string;
  flow: string;
  trail: string;
  fingerprint?: string | null;
}

export interface EvaluationRow {
  org_id: string;
  /** for the links in the policy input (org names do not change) */
  org_name: string;
  /** the base of the `html_url`s in the input it was given (so a replay on another replica builds the same) */
  public_base_url: string;
  id: string;
  status: 'pending' | 'completed' | 'failed';
  requested_by: string;
  /** Unix seconds, exact decimal text */
  requested_at: string;
  recorded_at: string;
  policy_digest: string;
  /** the trails and moments it used */
  trails: PinnedTrail[];
  params: Record<string, unknown> | null;
  decision: DecisionRequest | null;
  control: string | null;
  engine: string | null;
  engine_version: string | null;
  input_digest: string | null;
  result: unknown;
  result_digest: string | null;
  error: EvaluationError | null;
  decision_attestation_id: string | null;
  attempts: number;
}

const COLUMNS = `org_id, org_name, public_base_url, id, status, requested_by,
  EXTRACT(EPOCH FROM requested_at)::numeric::text AS requested_at, EXTRACT(EPOCH FROM recorded_at)::numeric::text AS recorded_at,
  policy_digest, trails, params, decision, control, engine, engine_version, input_digest, result, result_digest, error,
  decision_attestation_id, attempts`;

export interface Outcome {
  engine: string;
  engineVersion: string;
  inputDigest: string;
}

/** Owns `evaluations`. */
@Injectable()
export class EvaluationRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(
    manager: EntityManager,
    e: {
      orgId: string;
      orgName: string;
      publicBaseUrl: string;
      id: string;
      requestedBy: string;
      requestedAt: Date;
      /** Unix seconds, exact decimal text */
      recordedAt: string;
      policyDigest: string;
      trails: PinnedTrail[];
      params: Record<string, unknown> | null;
      decision: DecisionRequest | null;
      leaseMs: number;
    },
  ): Promise<EvaluationRow> {
    await manager.query(
      `INSERT INTO evaluations (org_id, id, status, requested_by, requested_at, recorded_at, policy_digest, trails, params, decision,
         control, lease_until, org_name, public_base_url)
       VALUES ($1, $2, 'pending', $3, $4, to_timestamp($5::numeric), $6, $7, $8, $9, $10, clock_timestamp() + $11 * interval '1 millisecond', $12, $13)`,
      [
        e.orgId,
        e.id,
        e.requestedBy,
        e.requestedAt,
        e.recordedAt,
        e.policyDigest,
        JSON.stringify(toStored(e.trails)),
        e.params === null ? null : JSON.stringify(e.params),
        e.decision === null ? null : JSON.stringify(e.decision),
        e.decision?.control ?? null,
        e.leaseMs,
        e.orgName,
        e.publicBaseUrl,
      ],
    );
    return {
      org_id: e.orgId,
      org_name: e.orgName,
      public_base_url: e.publicBaseUrl,
      id: e.id,
      status: 'pending',
      requested_by: e.requestedBy,
      requested_at: String(e.requestedAt.getTime() / 1000),
      recorded_at: e.recordedAt,
      policy_digest: e.policyDigest,
      trails: e.trails,
      params: e.params,
      decision: e.decision,
      control: e.decision?.control ?? null,
      engine: null,
      engine_version: null,
      input_digest: null,
      result: null,
      result_digest: null,
      error: null,
      decision_attestation_id: null,
      attempts: 1,
    };
  }

  async find(orgId: string, id: string): Promise<EvaluationRow | null> {
    const rows = await this.dataSource.query(`SELECT ${COLUMNS} FROM evaluations WHERE org_id = $1 AND id = $2`, [orgId, id]);
    return rows[0] ? fromStored(rows[0]) : null;
  }

  /** Completed evaluations that evaluated this trail (at any moment), oldest first (the audit package). */
  async completedCovering(orgId: string, flowName: string, trailName: string): Promise<EvaluationRow[]> {
    const rows = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM evaluations WHERE org_id = $1 AND status = 'completed' AND trails @> $2::jsonb ORDER BY recorded_at, id`,
      [orgId, JSON.stringify([{ flow_name: flowName, trail_name: trailName }])],
    );
    return rows.map(fromStored);
  }

  /**
   * Takes a pending evaluation to run it: only when no other runner holds a live lease on it. The lease lasts
   * `leaseMs`; a runner that dies leaves it to expire. Null when it is done or leased.
   */
  async claim(orgId: string, id: string, leaseMs: number): Promise<EvaluationRow | null> {
    const rows = await this.dataSource.query(
      `WITH c AS (
         UPDATE evaluations SET lease_until = clock_timestamp() + $3 * interval '1 millisecond', attempts = attempts + 1
         WHERE org_id = $1 AND id = $2 AND status = 'pending' AND (lease_until IS NULL OR lease_until < clock_timestamp())
         RETURNING *
       )
       SELECT ${COLUMNS} FROM c`,
      [orgId, id, leaseMs],
    );
    return rows[0] ? fromStored(rows[0]) : null;
  }

  /** Marks a pending evaluation completed; false when it is not pending any more (another runner finished it). */
  async complete(
    manager: EntityManager,
    orgId: string,
    id: string,
    outcome: Outcome & { result: unknown; resultDigest: string },
  ): Promise<boolean> {
    const rows = await manager.query(
      `WITH u AS (
         UPDATE evaluations SET status = 'completed', result = $3, result_digest = $4, input_digest = $5, engine = $6,
           engine_version = $7, completed_at = clock_timestamp(), lease_until = NULL
         WHERE org_id = $1 AND id = $2 AND status = 'pending' RETURNING id
       ) SELECT id FROM u`,
      [orgId, id, canonicalJson(outcome.result), outcome.resultDigest, outcome.inputDigest, outcome.engine, outcome.engineVersion],
    );
    return rows.length > 0;
  }

  async setDecisionAttestation(manager: EntityManager, orgId: string, id: string, attestationId: string): Promise<void> {
    await manager.query(`UPDATE evaluations SET decision_attestation_id = $3 WHERE org_id = $1 AND id = $2`, [orgId, id, attestationId]);
  }

  /** Marks a pending evaluation failed; false when it is not pending any more. */
  async fail(manager: EntityManager, orgId: string, id: string, error: EvaluationError, outcome: Partial<Outcome>): Promise<boolean> {
    const rows = await manager.query(
      `WITH u AS (
         UPDATE evaluations SET status = 'failed', error = $3, input_digest = $4, engine = $5, engine_version = $6,
           completed_at = clock_timestamp(), lease_until = NULL
         WHERE org_id = $1 AND id = $2 AND status = 'pending' RETURNING id
       ) SELECT id FROM u`,
      [orgId, id, JSON.stringify(error), outcome.inputDigest ?? null, outcome.engine ?? null, outcome.engineVersion ?? null],
    );
    return rows.length > 0;
  }

  /** Newest first, optionally by status and control. */
  async page(
    orgId: string,
    filter: { status?: string; control?: string },
    page: number,
    perPage: number,
  ): Promise<{ rows: EvaluationRow[]; total: number }> {
    const params: unknown[] = [orgId];
    const where = ['org_id = $1'];
    if (filter.status) {
      params.push(filter.status);
      where.push(`status = $${params.length}`);
    }
    if (filter.control) {
      params.push(filter.control);
      where.push(`control = $${params.length}`);
    }
    const [{ total }]: Array<{ total: number }> = await this.dataSource.query(
      `SELECT count(*)::int AS total FROM evaluations WHERE ${where.join(' AND ')}`,
      params,
    );
    const rows: EvaluationRow[] = (
      await this.dataSource.query(
      `SELECT ${COLUMNS} FROM evaluations WHERE ${where.join(' AND ')}
       ORDER BY requested_at DESC, id DESC LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
      params,
      )
    ).map(fromStored);
    return { rows, total };
  }
}
