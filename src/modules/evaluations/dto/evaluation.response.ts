import { EvaluationError } from '../domain/evaluation-error';
import type { PinnedTrail } from '../../trails/trails.module';
import { EvaluationRow } from '../persistence/evaluation.repository';

/**
 * An evaluation as every route shows it: the fields of the API (`id`, `status`, `requested_at`, `recorded_at`,
 * `result` when completed, `error` when failed, `decision_attestation_id` when a decision was requested and
 * written) and what makes it checkable (`verification`).
 */
export interface EvaluationResponse {
  id: string;
  status: 'pending' | 'completed' | 'failed';
  requested_at: number;
  recorded_at: number;
  result?: unknown;
  error?: EvaluationError;
  decision_attestation_id?: string | null;
  control: string | null;
  verification: {
    policy_digest: string;
    trails: TrailMomentRef[];
    input_digest: string | null;
    result_digest: string | null;
    engine: string | null;
    engine_version: string | null;
    /** recorded_at exactly (Unix seconds, microseconds): `GET .../moments/@{recorded_at}` gives each moment used */
    recorded_at: string;
  };
}

/** A trail at a moment as the API (and a decision's provenance) writes it. */
export interface TrailMomentRef {
  flow_name: string;
  trail_name: string;
  moment_number: number;
}

/** The HTTP edge's spelling of the trails an evaluation used. */
export function trailMomentRefs(trails: readonly PinnedTrail[]): TrailMomentRef[] {
  return trails.map((t) => ({ flow_name: t.flowName, trail_name: t.trailName, moment_number: t.momentNumber }));
}

export function toEvaluationResponse(row: EvaluationRow): EvaluationResponse {
  return {
    id: row.id,
    status: row.status,
    requested_at: Number(row.requested_at),
    recorded_at: Number(row.recorded_at),
    ...(row.status === 'completed' ? { result: row.result } : {}),
    ...(row.status === 'failed' ? { error: { kind: row.error!.kind, message: row.error!.message ?? '' } } : {}),
    ...(row.decision ? { decision_attestation_id: row.decision_attestation_id } : {}),
    control: row.control,
    verification: {
      policy_digest: row.policy_digest,
      trails: trailMomentRefs(row.trails),
      input_digest: row.input_digest,
      result_digest: row.result_digest,
      engine: row.engine,
      engine_version: row.engine_version,
      recorded_at: row.recorded_at,
    },
  };
}
