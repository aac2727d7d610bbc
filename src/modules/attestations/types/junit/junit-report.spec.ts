import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, copyFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ValidationError } from '../../../../common/errors/app-error';
import { EvidenceReader } from '../attestation-type';
import { assessJunit } from './junit-assessment';
import { JunitAttestationRequestDto } from './junit-attestation.request.dto';

const FIXTURES = join(__dirname, '../../../../../test/attestations/fixtures');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));

function evidence(content: Buffer, filename: string): EvidenceReader {
  return { filename, contentType: 'application/octet-stream', size: content.length, sha256Hex: '', read: async () => content };
}

function data(results: Array<Partial<{ total: number; failures: number; errors: number }>> = []): JunitAttestationRequestDto {
  return Object.assign(new JunitAttestationRequestDto(), {
    attestation_name: 'unit',
    junit_results: results.map((r, i) => ({ name: `s${i}`, total: 0, failures: 0, errors: 0, skipped: 0, duration: 1, ...r })),
  });
}

const assess = (content: Buffer | null, filename = 'report.xml', d = data()) =>
  assessJunit({ orgId: 'o', data: d, evidence: content ? evidence(content, filename) : null });

describe('junit assessment', () => {
  it('counts a jest-junit report from its test cases: one failure is non-compliant', async () => {
    const a = await assess(fixture('jest-junit.xml'), 'junit.xml', data([{ total: 5, failures: 1 }]));
    expect(a.isCompliant).toBe(false);
    expect(a.reasons).toEqual(['1 test case(s) failed']);
    const junit = a.summary!.junit as any;
    expect(junit).toMatchObject({ source: 'report', total: 5, passed: 3, failures: 1, errors: 0, skipped: 1, suite_count: 2, report_files: ['junit.xml'] });
    expect(junit.suites.map((s: any) => s.name)).toEqual(['ledger/moments', 'flows – naming ✓']);
    expect(junit.failed_tests).toEqual([
      { suite: 'ledger/moments', classname: 'moments keeps the template in force', name: 'moments keeps the template in force', kind: 'failure', message: '' },
    ]);
    expect(junit.duration).toBeCloseTo(2.413, 3);
  });

  it('reads a gzipped tar of surefire reports, as the CLI uploads several files; flaky failures do not count', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'junit-'));
    mkdirSync(join(dir, 'surefire-reports'));
    for (const f of ['TEST-com.example.billing.InvoiceTest.xml', 'TEST-com.example.billing.LedgerTest.xml']) copyFileSync(join(FIXTURES, f), join(dir, 'surefire-reports', f));
    writeFileSync(join(dir, 'surefire-reports', 'notes.txt'), 'not a report <');
    execFileSync('tar', ['-czf', join(dir, 'evidence.tgz'), '-C', dir, 'surefire-reports']);
    const a = await assess(readFileSync(join(dir, 'evidence.tgz')), 'surefire-reports.tgz', data([{ total: 6, errors: 1 }]));
    expect(a.isCompliant).toBe(false);
    expect(a.reasons).toEqual(['1 test case(s) errored']);
    expect(a.summary!.junit).toMatchObject({ total: 6, passed: 4, failures: 0, errors: 1, skipped: 1, suite_count: 2 });
    expect((a.summary!.junit as any).failed_tests[0]).toMatchObject({ name: 'loadsCurrencyTable', kind: 'error', message: 'Connection refused' });
  });

  it('is compliant when every case passed or was skipped', async () => {
    const a = await assess(fixture('TEST-com.example.billing.LedgerTest.xml'), 'TEST-x.xml', data([{ total: 2 }]));
    expect(a).toMatchObject({ isCompliant: true, reasons: [] });
  });

  it('lets the report decide when junit_results claims otherwise, and says so', async () => {
    const a = await assess(fixture('jest-junit.xml'), 'junit.xml', data([{ total: 5 }]));
    expect(a.isCompliant).toBe(false);
    expect(a.reasons![1]).toMatch(/junit_results claims 5 tests, 0 failures.*the report decides/);
  });

  it('judges junit_results when there is no report (--upload-results=false)', async () => {
    expect((await assess(null, '', data([{ total: 3 }]))).isCompliant).toBe(true);
    const failed = await assess(null, '', data([{ total: 3, failures: 2 }]));
    expect(failed).toMatchObject({ isCompliant: false, reasons: ['2 test case(s) failed'], summary: { junit: { source: 'junit_results', failures: 2 } } });
    expect((await assess(null, '', data([]))).reasons).toEqual(['no test cases were reported']);
  });

  it('takes an attachment with no XML in it as no report', async () => {
    const a = await assess(gzipSync(Buffer.from('plain text')), 'notes.txt.gz', data([{ total: 1 }]));
    expect(a.summary!.junit).toMatchObject({ source: 'junit_results', total: 1 });
  });

  it('answers broken XML and a truncated archive with a 400 keyed attachment_file', async () => {
    const broken = assess(Buffer.from('<testsuite name="a"><testcase name="x"></testsuite>'), 'broken.xml');
    await expect(broken).rejects.toBeInstanceOf(ValidationError);
    await expect(broken).rejects.toMatchObject({ errors: { attachment_file: expect.stringMatching(/broken.xml is not well-formed XML/) } });
    const tgz = gzipSync(Buffer.concat([Buffer.from(fixture('jest-junit.xml'))]));
    await expect(assess(tgz.subarray(0, tgz.length - 20), 'junit.xml.gz')).rejects.toBeInstanceOf(ValidationError);
  });

  it('counts a report once when the quick pass leaves it to saxes half-way (a processing instruction after a suite)', async () => {
    const xml = '<testsuites><testsuite name="a"><testcase name="1"><failure message="m"/></testcase><testcase name="2"/></testsuite><?pi x?><testsuite name="b"><testcase name="3"/></testsuite></testsuites>';
    const a = await assess(Buffer.from(xml), 'report.xml', data([{ total: 3, failures: 1 }]));
    expect(a.summary!.junit).toMatchObject({ total: 3, failures: 1, suite_count: 2, report_files: ['report.xml'] });
    expect((a.summary!.junit as any).failed_tests).toEqual([{ suite: 'a', classname: '', name: '1', kind: 'failure', message: 'm' }]);
    expect(a.reasons).toEqual(['1 test case(s) failed']);
  });

  it('counts 20,000 cases in a 5 MB report with a summary of bounded size', async () => {
    const cases: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const body = i % 1000 === 0 ? `<failure message="boom ${i}">${'x'.repeat(150)}</failure>` : `<system-out>${'y'.repeat(150)}</system-out>`;
      cases.push(`<testcase classname="pkg.Suite${i % 200}" name="case number ${i}" time="0.001">${body}</testcase>`);
    }
    const xml = Buffer.from(`<?xml version="1.0"?><testsuites><testsuite name="big">${cases.join('\n')}</testsuite></testsuites>`);
    expect(xml.length).toBeGreaterThan(5_000_000);
    const a = await assess(xml);
    expect(a.summary!.junit).toMatchObject({ total: 20_000, failures: 20 });
    expect((a.summary!.junit as any).failed_tests).toHaveLength(20);
    expect(JSON.stringify(a.summary).length).toBeLessThan(10_000);
  });
});
