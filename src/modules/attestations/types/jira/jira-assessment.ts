import { Assessment, AssessmentInput } from '../attestation-type';
import { JiraAttestationRequestDto } from './jira-attestation.request.dto';

/** The typed fields of a jira attestation (`data.jira`). */
export interface JiraSummary {
  issue_keys: string[];
  found: string[];
  missing: string[];
  issues: Array<{ key: string; url: string; exists: boolean; status: string | null; summary: string | null }>;
}

/**
 * Jira compliance, from the issues the CLI looked up: compliant when at least one issue reference was found and
 * every one of them exists in Jira (the CLI's rule: a reference to an issue Jira does not have makes it
 * non-compliant, even beside a valid one). The issue's status and summary are kept when `issue_fields` has them.
 */
export async function assessJira({ data }: AssessmentInput<JiraAttestationRequestDto>): Promise<Assessment> {
  const issues = data.jira_results.map((r) => {
    const status = (r.issue_fields?.status as { name?: unknown } | undefined)?.name;
    const summary = r.issue_fields?.summary;
    return { key: r.issue_id, url: r.issue_url, exists: r.issue_exists, status: typeof status === 'string' ? status : null, summary: typeof summary === 'string' ? summary : null };
  });
  const summary: JiraSummary = {
    issue_keys: issues.map((i) => i.key),
    found: issues.filter((i) => i.exists).map((i) => i.key),
    missing: issues.filter((i) => !i.exists).map((i) => i.key),
    issues,
  };
  const reasons: string[] = [];
  if (!issues.length) reasons.push('no Jira issue reference was found');
  if (summary.missing.length) reasons.push(`not found in Jira: ${summary.missing.join(', ')}`);
  return { isCompliant: reasons.length === 0, reasons, summary: { jira: summary } };
}
