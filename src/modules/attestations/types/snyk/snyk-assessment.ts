import { Assessment, AssessmentInput } from '../attestation-type';
import { EvidenceFormatError, evidenceError } from '../evidence/evidence-format-error';
import { jsonFilesOf } from '../evidence/json-evidence';
import { SnykAttestationRequestDto } from './snyk-attestation.request.dto';

type Severity = 'high' | 'medium' | 'low';

/** The typed fields of a snyk attestation (`data.snyk`, `input...snyk.high` in a policy). */
export interface SnykSummary {
  /** Where the counts come from: the attached SARIF / Snyk JSON, or the CLI's `snyk_results` without one. */
  source: 'report' | 'snyk_results';
  tool: { name: string; version: string } | null;
  /** Vulnerabilities by severity, as the CLI buckets them: high takes error/high/critical, low takes note/info/low. */
  high: number;
  medium: number;
  low: number;
  total: number;
  /** Of `high`, those Snyk rated critical (Snyk JSON only; SARIF has no such level). */
  critical: number;
  /** Rule / vulnerability ids per severity (first 100 each, distinct). */
  ids: Record<Severity, string[]>;
  report_files: string[];
}

const MAX_IDS = 100;

/**
 * Snyk compliance, decided from the evidence: the attached scan results when the attachment holds them (the
 * CLI uploads the SARIF file by default), else the CLI's `snyk_results`. Any vulnerability found is
 * non-compliant. The CLI sends no severity threshold of its own: a team that tolerates low severities runs
 * `snyk ... --severity-threshold=high`, and Snyk leaves the lower ones out of the SARIF it writes, so the
 * threshold is already in the evidence. A JSON attachment that is neither SARIF (`runs`) nor Snyk JSON
 * (`vulnerabilities`) is a 400.
 */
export async function assessSnyk({ data, evidence }: AssessmentInput<SnykAttestationRequestDto>): Promise<Assessment> {
  let counted: Omit<SnykSummary, 'source' | 'report_files'> | null = null;
  const files: string[] = [];
  if (evidence) {
    try {
      for (const file of await jsonFilesOf(await evidence.read(), evidence.filename)) {
        const one = countSarif(file.value) ?? countSnykJson(file.value);
        if (!one) throw new EvidenceFormatError(`${file.name} is neither a SARIF report (no "runs") nor Snyk JSON output (no "vulnerabilities")`);
        counted = counted ? merge(counted, one) : one;
        files.push(file.name);
      }
    } catch (error) {
      throw evidenceError(error);
    }
  }
  return judgeSnyk(data, counted ? { source: 'report', ...counted, report_files: files } : null);
}

export function judgeSnyk(data: SnykAttestationRequestDto, fromReport: SnykSummary | null): Assessment {
  const claimed = data.snyk_results.results.reduce(
    (sum, r) => ({ high: sum.high + r.high_count, medium: sum.medium + r.medium_count, low: sum.low + r.low_count }),
    { high: 0, medium: 0, low: 0 },
  );
  const summary: SnykSummary = fromReport ?? {
    source: 'snyk_results',
    tool: { ...data.snyk_results.tool },
    ...claimed,
    total: claimed.high + claimed.medium + claimed.low,
    critical: 0,
    ids: {
      high: distinctIds(data.snyk_results.results.flatMap((r) => r.high ?? []).map((i) => i.id)),
      medium: distinctIds(data.snyk_results.results.flatMap((r) => r.medium ?? []).map((i) => i.id)),
      low: distinctIds(data.snyk_results.results.flatMap((r) => r.low ?? []).map((i) => i.id)),
    },
    report_files: [],
  };
  const reasons: string[] = [];
  if (summary.total > 0) reasons.push(`${summary.total} vulnerabilities found: ${summary.high} high, ${summary.medium} medium, ${summary.low} low`);
  const isCompliant = reasons.length === 0;
  if (fromReport && (claimed.high !== fromReport.high || claimed.medium !== fromReport.medium || claimed.low !== fromReport.low)) {
    reasons.push(
      `snyk_results claims ${claimed.high} high, ${claimed.medium} medium, ${claimed.low} low; the attached results have ` +
        `${fromReport.high}, ${fromReport.medium}, ${fromReport.low}: the results decide`,
    );
  }
  return { isCompliant, reasons, summary: { snyk: summary } };
}

type Counted = Omit<SnykSummary, 'source' | 'report_files'>;

const asObject = (v: unknown): Record<string, any> | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, any>) : null);

/** SARIF 2.1: each run's results by level; a result without one takes its rule's (Snyk puts it in the rule's properties). */
function countSarif(doc: unknown): Counted | null {
  const sarif = asObject(doc);
  if (!sarif || !Array.isArray(sarif.runs)) return null;
  const out = empty();
  for (const run of sarif.runs) {
    const driver = asObject(asObject(asObject(run)?.tool)?.driver);
    if (driver && !out.tool) out.tool = { name: String(driver.name ?? ''), version: String(driver.version ?? driver.semanticVersion ?? '') };
    const rules = new Map<string, Record<string, any>>();
    for (const rule of Array.isArray(driver?.rules) ? driver!.rules : []) if (asObject(rule)?.id) rules.set(String(rule.id), rule);
    const results = asObject(run)?.results;
    if (results !== undefined && !Array.isArray(results)) throw new EvidenceFormatError('a SARIF run has "results" that is not an array');
    for (const result of results ?? []) {
      const r = asObject(result);
      if (!r) throw new EvidenceFormatError('a SARIF result is not an object');
      const rule = rules.get(String(r.ruleId ?? ''));
      const level = String(r.level ?? asObject(asObject(rule?.properties)?.problem)?.severity ?? asObject(rule?.defaultConfiguration)?.level ?? 'warning');
      add(out, bucket(level), String(r.ruleId ?? ''));
    }
  }
  return out;
}

/** `snyk test --json`: one project object, or an array of them (`--all-projects`). */
function countSnykJson(doc: unknown): Counted | null {
  const projects = Array.isArray(doc) ? doc.map(asObject) : [asObject(doc)];
  if (!projects.length || projects.some((p) => !p || !Array.isArray(p.vulnerabilities))) return null;
  const out = empty();
  out.tool = { name: 'Snyk Open Source', version: '' };
  for (const p of projects) {
    for (const v of p!.vulnerabilities) {
      const severity = String(asObject(v)?.severity ?? 'medium');
      if (severity === 'critical') out.critical++;
      add(out, bucket(severity), String(asObject(v)?.id ?? ''));
    }
  }
  return out;
}

/** SARIF `none` is not a problem (not counted); an unknown level counts as medium. */
function bucket(level: string): Severity | null {
  switch (level.toLowerCase()) {
    case 'error':
    case 'high':
    case 'critical':
      return 'high';
    case 'note':
    case 'info':
    case 'low':
      return 'low';
    case 'none':
      return null;
    default:
      return 'medium';
  }
}

function empty(): Counted {
  return { tool: null, high: 0, medium: 0, low: 0, total: 0, critical: 0, ids: { high: [], medium: [], low: [] } };
}

function add(out: Counted, severity: Severity | null, id: string): void {
  if (!severity) return;
  out[severity]++;
  out.total++;
  if (id && out.ids[severity].length < MAX_IDS && !out.ids[severity].includes(id)) out.ids[severity].push(id);
}

function merge(a: Counted, b: Counted): Counted {
  return {
    tool: a.tool ?? b.tool,
    high: a.high + b.high,
    medium: a.medium + b.medium,
    low: a.low + b.low,
    total: a.total + b.total,
    critical: a.critical + b.critical,
    ids: {
      high: distinctIds([...a.ids.high, ...b.ids.high]),
      medium: distinctIds([...a.ids.medium, ...b.ids.medium]),
      low: distinctIds([...a.ids.low, ...b.ids.low]),
    },
  };
}

function distinctIds(ids: string[]): string[] {
  return [...new Set(ids.filter(Boolean))].slice(0, MAX_IDS);
}
