import { EvaluationError } from '../domain/evaluation-error';
import { EvaluatedTrail, EvaluationRow } from '../persistence/evaluation.repository';

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
    trails: EvaluatedTrail[];
    input_digest: string | null;
    result_digest: string | null;
    engine: string | null;
    engine_version: string | null;
    /** recorded_at exactly (Unix seconds, microseconds): `GET .../moments/@{recorded_at}` gives each moment used */
    recorded_at: string;
  };
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
      trails: row.trails,
      input_digest: row.input_digest,
      result_digest: row.result_digest,
      engine: row.engine,
      engine_version: row.engine_version,
      recorded_at: row.recorded_at,
    },
  };
}
