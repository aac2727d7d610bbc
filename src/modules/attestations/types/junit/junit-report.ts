import { StringDecoder } from 'node:string_decoder';
import { SaxesParser } from 'saxes';
import { EvidenceFormatError } from '../evidence/evidence-format-error';
import { FileSink } from '../evidence/evidence-files';
import { piecesOf, quickXmlScanPieces, TagEvents } from './quick-xml-scan';

/** Counts of one suite (or of a whole report). */
export interface JunitCounts {
  total: number;
  failures: number;
  errors: number;
  skipped: number;
  duration: number;
}

export interface JunitSuiteSummary extends JunitCounts {
  name: string;
}

export interface FailedTest {
  suite: string;
  classname: string;
  name: string;
  kind: 'failure' | 'error';
  message: string;
}

export interface JunitReport extends JunitCounts {
  suites: JunitSuiteSummary[];
  /** The first MAX_LISTED failed or errored cases (the counts are exact whatever the cap). */
  failedTests: FailedTest[];
  /** Files of the attachment that were JUnit reports. */
  files: string[];
}

/** Listed suites and failed tests are capped so a huge report keeps a small summary; counts are never capped. */
export const MAX_LISTED = 100;
const MAX_MESSAGE = 500;
/** The elements whose attributes are read. */
const READ_ATTRIBUTES: ReadonlySet<string> = new Set(['testsuite', 'testcase', 'failure', 'error']);

interface OpenSuite extends JunitSuiteSummary {
  timeAttr: number | null;
  caseTime: number;
}

/**
 * Counts a JUnit XML report as it streams in (SAX, no document tree): memory is the summary plus the parser's
 * small state, whatever the report's size. Test cases decide, not the suites' own `tests`/`failures`
 * attributes: a case with <failure> failed, with <error> errored, with <skipped> was skipped (the way JUnit
 * runners, Surefire and jest-junit write them). Nested suites are counted once, in the innermost suite.
 * A file whose root element is neither <testsuites> nor <testsuite> is not a report and is left out.
 */
export class JunitReportReader {
  private readonly report: JunitReport = { total: 0, failures: 0, errors: 0, skipped: 0, duration: 0, suites: [], failedTests: [], files: [] };

  /** A sink for one file of the attachment (for walkEvidenceFiles); files not ending in .xml are skipped. */
  open(name: string, requireXmlName: boolean): FileSink | null {
    if (requireXmlName && !/\.xml$/i.test(name)) return null;
    return new JunitFileSink(name, this.report);
  }

  result(): JunitReport {
    return this.report;
  }
}

class JunitFileSink implements FileSink {
  private readonly parser = new SaxesParser<{ xmlns: false; position: false }>({ xmlns: false, position: false });
  /** Slices may cut a UTF-8 sequence in two; the decoder carries the partial bytes over. */
  private readonly decoder = new StringDecoder('utf8');
  private readonly suites: OpenSuite[] = [];
  private root: string | null = null;
  private isReport = false;
  private testcase: { name: string; classname: string; time: number; status: 'passed' | 'failure' | 'error' | 'skipped'; message: string } | null = null;
  private depth = 0;
  private caseDepth = -1;
  /** Cases straight under <testsuites>, outside any suite. */
  private loose: OpenSuite | null = null;

  constructor(
    private readonly name: string,
    private readonly report: JunitReport,
  ) {
    this.parser.on('error', (error) => {
      throw new EvidenceFormatError(`${name} is not well-formed XML: ${error.message}`);
    });
    this.parser.on('opentag', (tag) => this.openTag(tag.name, tag.attributes as Record<string, string>));
    this.parser.on('closetag', (tag) => this.closeTag(tag.name));
  }

  /**
   * A file in memory whole is read by the quick pass first (quick-xml-scan.ts, several times faster than
   * saxes); when that pass leaves the file to the full parser, whatever it counted is taken back and the file
   * goes through saxes from the start (write + end), which then decides, errors included.
   */
  whole(content: Buffer): boolean {
    const report = this.report;
    const saved = { total: report.total, failures: report.failures, errors: report.errors, skipped: report.skipped, duration: report.duration, suites: report.suites.length, failedTests: report.failedTests.length };
    const events: TagEvents = { openTag: (name, attributes) => this.openTag(name, attributes), closeTag: (name) => this.closeTag(name) };
    if (quickXmlScanPieces(piecesOf(content), events, READ_ATTRIBUTES)) {
      if (this.isReport) report.files.push(this.name);
      return true;
    }
    Object.assign(report, { total: saved.total, failures: saved.failures, errors: saved.errors, skipped: saved.skipped, duration: saved.duration });
    report.suites.length = saved.suites;
    report.failedTests.length = saved.failedTests;
    this.suites.length = 0;
    this.root = null;
    this.isReport = false;
    this.testcase = null;
    this.depth = 0;
    this.caseDepth = -1;
    this.loose = null;
    return false;
  }

  write(chunk: Buffer): void {
    this.parser.write(this.decoder.write(chunk));
  }

  end(): void {
    this.parser.write(this.decoder.end());
    this.parser.close();
    if (this.root === null) throw new EvidenceFormatError(`${this.name} has no XML document`);
    if (this.isReport) this.report.files.push(this.name);
  }

  private openTag(name: string, attributes: Record<string, string>): void {
    this.depth++;
    if (this.root === null) {
      this.root = name;
      this.isReport = name === 'testsuites' || name === 'testsuite';
    }
    if (!this.isReport) return;
    const attr = (key: string) => (typeof attributes[key] === 'string' ? attributes[key] : '');
    switch (name) {
      case 'testsuite':
        if (this.testcase) return;
        this.suites.push({ name: attr('name'), total: 0, failures: 0, errors: 0, skipped: 0, duration: 0, timeAttr: seconds(attr('time')), caseTime: 0 });
        return;
      case 'testcase':
        if (this.testcase) return;
        this.testcase = { name: attr('name'), classname: attr('classname'), time: seconds(attr('time')) ?? 0, status: 'passed', message: '' };
        this.caseDepth = this.depth;
        return;
      case 'failure':
      case 'error':
        // Only the case's own children: surefire's <flakyFailure>/<rerunFailure> are other names and do not count.
        if (this.testcase && this.depth === this.caseDepth + 1 && this.testcase.status !== 'error') {
          this.testcase.status = name;
          this.testcase.message = (attr('message') || attr('type')).slice(0, MAX_MESSAGE);
        }
        return;
      case 'skipped':
        if (this.testcase && this.depth === this.caseDepth + 1 && this.testcase.status === 'passed') this.testcase.status = 'skipped';
        return;
    }
  }

  private closeTag(name: string): void {
    const depth = this.depth--;
    if (!this.isReport) return;
    if (name === 'testcase' && this.testcase && depth === this.caseDepth) {
      const c = this.testcase;
      this.testcase = null;
      const suite = this.suites[this.suites.length - 1] ?? (this.loose ??= { name: '', total: 0, failures: 0, errors: 0, skipped: 0, duration: 0, timeAttr: null, caseTime: 0 });
      suite.total++;
      suite.caseTime += c.time;
      if (c.status === 'failure') suite.failures++;
      else if (c.status === 'error') suite.errors++;
      else if (c.status === 'skipped') suite.skipped++;
      if ((c.status === 'failure' || c.status === 'error') && this.report.failedTests.length < MAX_LISTED) {
        this.report.failedTests.push({ suite: suite.name, classname: c.classname, name: c.name, kind: c.status, message: c.message });
      }
    } else if (name === 'testsuite' && !this.testcase && this.suites.length) {
      this.closeSuite(this.suites.pop()!);
    } else if (depth === 1 && this.loose) {
      this.closeSuite(this.loose);
      this.loose = null;
    }
  }

  private closeSuite(suite: OpenSuite): void {
    const { timeAttr, caseTime, ...counts } = suite;
    counts.duration = round(timeAttr ?? caseTime);
    const r = this.report;
    if (counts.total === 0) return;
    r.total += counts.total;
    r.failures += counts.failures;
    r.errors += counts.errors;
    r.skipped += counts.skipped;
    r.duration = round(r.duration + counts.duration);
    // A suite that only holds suites has no cases of its own: it is not listed (its children are).
    if (r.suites.length < MAX_LISTED) r.suites.push(counts);
  }
}

function seconds(text: string): number | null {
  if (!text) return null;
  const n = Number(text.includes(',') ? text.replace(/,/g, '') : text);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
