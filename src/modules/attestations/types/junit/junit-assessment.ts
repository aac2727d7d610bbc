import { Assessment, AssessmentInput } from '../attestation-type';
import { walkEvidenceFiles } from '../evidence/evidence-files';
import { evidenceError } from '../evidence/evidence-format-error';
import { JunitReport, JunitReportReader } from './junit-report';
import { JunitAttestationRequestDto } from './junit-attestation.request.dto';

/** The typed fields of a junit attestation (`data.junit`, `input...junit` in a policy). */
export interface JunitSummary {
  /** Where the counts come from: the attached XML report(s), or the CLI's `junit_results` without one. */
  source: 'report' | 'junit_results';
  total: number;
  passed: number;
  failures: number;
  errors: number;
  skipped: number;
  /** Seconds. */
  duration: number;
  suite_count: number;
  suites: Array<{ name: string; total: number; failures: number; errors: number; skipped: number; duration: number }>;
  failed_tests: Array<{ suite: string; classname: string; name: string; kind: 'failure' | 'error'; message: string }>;
  report_files: string[];
}

/**
 * JUnit compliance, decided from the evidence: the attached report(s) when the attachment holds any (the CLI
 * uploads them by default), else the `junit_results` the CLI computed. Any failed or errored test case is
 * non-compliant; so is a run with no test case at all (it shows nothing). When the report and `junit_results`
 * disagree, the report decides and the reasons say so. Broken XML is a 400 (nothing stored): the CLI refuses
 * such a file itself, so it can only come from a client that is wrong.
 */
export async function assessJunit({ data, evidence }: AssessmentInput<JunitAttestationRequestDto>): Promise<Assessment> {
  let report: JunitReport | null = null;
  if (evidence) {
    const reader = new JunitReportReader();
    const content = await evidence.read();
    try {
      // A single file is read whatever its name (the CLI keeps the original name); in an archive only *.xml.
      let archived = false;
      await walkEvidenceFiles(content, evidence.filename, (name) => reader.open(name, (archived ||= name !== evidence.filename)));
    } catch (error) {
      throw evidenceError(error);
    }
    if (reader.result().files.length) report = reader.result();
  }
  return judgeJunit(data, report);
}

export function judgeJunit(data: JunitAttestationRequestDto, report: JunitReport | null): Assessment {
  const claimed = data.junit_results.reduce(
    (sum, r) => ({ total: sum.total + r.total, failures: sum.failures + r.failures, errors: sum.errors + r.errors, skipped: sum.skipped + r.skipped, duration: sum.duration + r.duration }),
    { total: 0, failures: 0, errors: 0, skipped: 0, duration: 0 },
  );
  const summary: JunitSummary = report
    ? {
        source: 'report',
        total: report.total,
        passed: report.total - report.failures - report.errors - report.skipped,
        failures: report.failures,
        errors: report.errors,
        skipped: report.skipped,
        duration: report.duration,
        suite_count: report.suites.length,
        suites: report.suites,
        failed_tests: report.failedTests,
        report_files: report.files,
      }
    : {
        source: 'junit_results',
        ...claimed,
        duration: Math.round(claimed.duration * 1000) / 1000,
        passed: claimed.total - claimed.failures - claimed.errors - claimed.skipped,
        suite_count: data.junit_results.length,
        suites: data.junit_results.slice(0, 100).map(({ name, total, failures, errors, skipped, duration }) => ({ name, total, failures, errors, skipped, duration })),
        failed_tests: [],
        report_files: [],
      };
  const reasons: string[] = [];
  if (summary.failures) reasons.push(`${summary.failures} test case(s) failed`);
  if (summary.errors) reasons.push(`${summary.errors} test case(s) errored`);
  if (summary.total === 0) reasons.push('no test cases were reported');
  const isCompliant = reasons.length === 0;
  if (report && (claimed.total !== report.total || claimed.failures !== report.failures || claimed.errors !== report.errors)) {
    reasons.push(
      `junit_results claims ${claimed.total} tests, ${claimed.failures} failures, ${claimed.errors} errors; ` +
        `the attached report has ${report.total}, ${report.failures}, ${report.errors}: the report decides`,
    );
  }
  return { isCompliant, reasons, summary: { junit: summary } };
}
