import { Assessment } from '../attestation-type';
import { anyObject, arrayOf, bool, checkShape, nullable, object, str } from '../evidence/shape';

/**
 * The analysis as SonarQube's webhook sends it and `kosli attest sonar` forwards it: required fields as the
 * API reference lists them, extra fields allowed at every level (`branch`, `properties`...).
 */
export const SONAR_RESULTS_SHAPE = object(
  {
    analysedAt: str,
    revision: str,
    project: object({ key: str, url: str }, { name: str }, true),
  },
  {
    serverUrl: nullable(str),
    taskId: nullable(str),
    status: nullable(str),
    changedAt: nullable(str),
    branch: nullable(anyObject),
    qualityGate: nullable(
      object(
        { status: str, conditions: arrayOf(object({ metric: str, errorThreshold: str, operator: str, status: str }, { value: nullable(str), onLeakPeriod: nullable(bool) }, true)) },
        { name: nullable(str) },
        true,
      ),
    ),
  },
  true,
);

/** The typed fields of a sonar attestation (`data.sonar`). */
export interface SonarSummary {
  quality_gate_status: string | null;
  quality_gate_name: string | null;
  failed_conditions: Array<{ metric: string; status: string; value: string | null; operator: string; error_threshold: string }>;
  condition_count: number;
  project_key: string;
  project_name: string | null;
  project_url: string;
  analysed_at: string;
  revision: string;
  server_url: string | null;
  task_id: string | null;
  branch: string | null;
}

interface SonarCondition {
  metric: string;
  errorThreshold: string;
  operator: string;
  status: string;
  value?: string | null;
}

/** Checks `sonar_results` (400 keyed `<path>.project.key`...) and judges it. */
export function assessSonarResults(results: Record<string, unknown>, path: string): Assessment {
  checkShape(SONAR_RESULTS_SHAPE, results, path);
  return judgeSonar(results as any);
}

/**
 * Sonar compliance is the quality gate's verdict: `OK` is compliant; `ERROR` (or any other status) is not, with
 * the failed conditions as reasons; an analysis without a quality gate shows nothing about quality and is not
 * compliant either.
 */
export function judgeSonar(r: {
  analysedAt: string;
  revision: string;
  project: { key: string; url: string; name?: string };
  serverUrl?: string | null;
  taskId?: string | null;
  branch?: { name?: unknown } | null;
  qualityGate?: { name?: string | null; status: string; conditions: SonarCondition[] } | null;
}): Assessment {
  const gate = r.qualityGate ?? null;
  const failed = (gate?.conditions ?? [])
    .filter((c) => c.status !== 'OK' && c.status !== 'NO_VALUE')
    .map((c) => ({ metric: c.metric, status: c.status, value: c.value ?? null, operator: c.operator, error_threshold: c.errorThreshold }));
  const summary: SonarSummary = {
    quality_gate_status: gate?.status ?? null,
    quality_gate_name: gate?.name ?? null,
    failed_conditions: failed,
    condition_count: gate?.conditions.length ?? 0,
    project_key: r.project.key,
    project_name: r.project.name ?? null,
    project_url: r.project.url,
    analysed_at: r.analysedAt,
    revision: r.revision,
    server_url: r.serverUrl ?? null,
    task_id: r.taskId ?? null,
    branch: typeof r.branch?.name === 'string' ? r.branch.name : null,
  };
  const reasons: string[] = [];
  if (!gate) reasons.push('the analysis has no quality gate');
  else if (gate.status !== 'OK') {
    const why = failed.map((c) => `${c.metric} ${c.value ?? '?'} (${c.operator} ${c.error_threshold}: ${c.status})`).join(', ');
    reasons.push(`quality gate${gate.name ? ` '${gate.name}'` : ''} is ${gate.status}${why ? `: ${why}` : ''}`);
  }
  return { isCompliant: reasons.length === 0, reasons, summary: { sonar: summary } };
}
