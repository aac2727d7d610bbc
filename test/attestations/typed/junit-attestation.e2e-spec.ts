import { createHash } from 'node:crypto';
import { HttpReceiver, startHttpReceiver } from '../../support/receivers';
import { waitFor } from '../../support/wait';
import { bearer, createOrg, TestOrg } from '../../support/factories';
import { startTestApp, TestApp, uniqueName } from '../../support/test-app';
import { countRows } from '../../support/attestation-helpers';
import { fixture, postTyped, readSlot } from './typed-helpers';

const JEST_RESULTS = [
  { name: 'ledger/moments', failures: 1, errors: 0, skipped: 1, total: 3, duration: 1.902, timestamp: 1795727643 },
  { name: 'flows – naming ✓', failures: 0, errors: 0, skipped: 0, total: 2, duration: 0.511 },
];

describe('junit attestations', () => {
  let t: TestApp;
  let org: TestOrg;
  let receiver: HttpReceiver;

  beforeAll(async () => {
    receiver = await startHttpReceiver();
    t = await startTestApp({ ACTIONS_ALLOW_PRIVATE_TARGETS: 'true', ACTIONS_RETRY_DELAY_SECONDS: '1' });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });
  beforeEach(async () => {
    org = await createOrg(t, { features: ['evaluations', 'trail_moments'] });
  });

  const junit = (flow: string, trail: string, data: object, attachment?: { content: Buffer; filename: string }) =>
    postTyped(t, org.adminKey, org.name, flow, trail, 'junit', { attestation_name: 'unit', ...data }, attachment);

  it('judges a jest-junit report: a failed case is non-compliant, with counts a reader needs and the XML kept', async () => {
    const flow = uniqueName('flow');
    const xml = fixture('jest-junit.xml');
    const res = await junit(flow, 't1', { junit_results: JEST_RESULTS, origin_url: 'https://ci.example.com/1' }, { content: xml, filename: 'junit.xml' });
    expect(res.status).toBe(201);
    expect(res.body).toMatch(/^junit attestation 'unit' was reported to trail 't1' \(attestation [0-9a-f-]{36}\)$/);

    const a = await readSlot(t, org.adminKey, org.name, flow, 't1', 'unit');
    expect(a).toMatchObject({
      attestation_type: 'junit',
      is_compliant: false,
      compliance_reasons: ['1 test case(s) failed'],
      junit: { source: 'report', total: 5, passed: 3, failures: 1, errors: 0, skipped: 1, suite_count: 2, report_files: ['junit.xml'] },
      junit_results: JEST_RESULTS,
      origin_url: 'https://ci.example.com/1',
    });
    expect(a.junit.failed_tests[0]).toMatchObject({ suite: 'ledger/moments', name: 'moments keeps the template in force', kind: 'failure' });
    expect(a.evidence).toMatchObject({ sha256: createHash('sha256').update(xml).digest('hex'), filename: 'junit.xml', size: xml.length });
    const download = await t.http().get(new URL(a.evidence.download_url).pathname).set(...bearer(org.adminKey)).buffer(true).parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    expect(Buffer.compare(download.body, xml)).toBe(0);

    // The same shape in the org-wide read and in the flow listing.
    const byId = await t.http().get(`/api/v2/attestations/${org.name}?attestation_id=${a.attestation_id}`).set(...bearer(org.adminKey)).expect(200);
    expect(byId.body.data[0].junit).toEqual(a.junit);
    const listed = await t.http().get(`/api/v2/attestations/${org.name}/${flow}`).set(...bearer(org.adminKey)).expect(200);
    expect(listed.body.data[0].junit).toEqual(a.junit);
  });

  it('does not take compliance on trust: junit_results that claim a pass lose to the report', async () => {
    const flow = uniqueName('flow');
    const claimsPass = JEST_RESULTS.map((r) => ({ ...r, failures: 0 }));
    await junit(flow, 't1', { junit_results: claimsPass }, { content: fixture('jest-junit.xml'), filename: 'junit.xml' }).expect(201);
    const a = await readSlot(t, org.adminKey, org.name, flow, 't1', 'unit');
    expect(a.is_compliant).toBe(false);
    expect(a.compliance_reasons[1]).toMatch(/junit_results claims 5 tests, 0 failures, 0 errors; the attached report has 5, 1, 0/);
  });

  it('is compliant for a surefire report with a skipped case; without a report it judges junit_results', async () => {
    const flow = uniqueName('flow');
    await junit(flow, 't1', { junit_results: [{ name: 'com.example.billing.LedgerTest', failures: 0, errors: 0, skipped: 1, total: 2, duration: 0.051 }] }, {
      content: fixture('TEST-com.example.billing.LedgerTest.xml'),
      filename: 'TEST-com.example.billing.LedgerTest.xml',
    }).expect(201);
    expect(await readSlot(t, org.adminKey, org.name, flow, 't1', 'unit')).toMatchObject({ is_compliant: true, junit: { total: 2, skipped: 1, passed: 1 } });
    await postTyped(t, org.adminKey, org.name, flow, 't1', 'junit', {
      attestation_name: 'no-upload',
      junit_results: [{ name: 's', failures: 0, errors: 2, skipped: 0, total: 9, duration: 1 }],
    }).expect(201);
    expect(await readSlot(t, org.adminKey, org.name, flow, 't1', 'no-upload')).toMatchObject({
      is_compliant: false,
      compliance_reasons: ['2 test case(s) errored'],
      junit: { source: 'junit_results', total: 9, errors: 2 },
      evidence: null,
    });
  });

  it('answers broken XML and a bad data_json with 400 and the error body, storing nothing', async () => {
    const flow = uniqueName('flow');
    const broken = await junit(flow, 't1', { junit_results: JEST_RESULTS }, { content: Buffer.from('<testsuites><testsuite name="a"><testcase name="x"></testsuites>'), filename: 'junit.xml' });
    expect(broken.status).toBe(400);
    expect(broken.body.message).toBe('Input payload validation failed');
    expect(broken.body.errors.attachment_file).toMatch(/^junit.xml is not well-formed XML/);
    const missing = await junit(flow, 't1', {});
    expect([missing.status, Object.keys(missing.body.errors)]).toEqual([400, ['junit_results']]);
    const negative = await junit(flow, 't1', { junit_results: [{ ...JEST_RESULTS[1], failures: -1 }] });
    expect([negative.status, Object.keys(negative.body.errors)]).toEqual([400, ['junit_results[0].failures']]);
    const unknown = await junit(flow, 't1', { junit_results: [{ ...JEST_RESULTS[1], passed: 2 }] });
    expect([unknown.status, Object.keys(unknown.body.errors)]).toEqual([400, ['junit_results[0].passed']]);
    expect(await countRows(t, `SELECT 1 FROM flows f JOIN organizations o ON o.id = f.org_id WHERE o.name = $1`, [org.name])).toBe(0);
  });

  it('answers a 50 MB report with 413 and stores nothing', async () => {
    const flow = uniqueName('flow');
    const big = Buffer.alloc(50 * 1024 * 1024, 0x20);
    big.write('<testsuites>');
    const res = await junit(flow, 't1', { junit_results: JEST_RESULTS }, { content: big, filename: 'huge.xml' });
    expect(res.status).toBe(413);
    expect(res.body.message).toMatch(/larger than/);
    expect(await countRows(t, `SELECT 1 FROM attestations a JOIN organizations o ON o.id = a.org_id WHERE o.name = $1`, [org.name])).toBe(0);
  });

  it('shows the typed fields in trail compliance, in moments, and to a policy as input...junit.failures', async () => {
    const flow = uniqueName('flow');
    await junit(flow, 't1', { junit_results: JEST_RESULTS }, { content: fixture('jest-junit.xml'), filename: 'junit.xml' }).expect(201);
    const trail = await t.http().get(`/api/v2/trails/${org.name}/${flow}/t1`).set(...bearer(org.adminKey)).expect(200);
    const slot = trail.body.compliance_status.attestations_statuses.find((s: any) => s.attestation_name === 'unit');
    expect(slot).toMatchObject({ attestation_type: 'junit', is_compliant: false, junit: { failures: 1, total: 5 }, compliance_reasons: ['1 test case(s) failed'] });
    const moment = await t.http().get(`/api/v2/trails/${org.name}/${flow}/t1/moments/latest`).set(...bearer(org.adminKey)).expect(200);
    expect(moment.body.compliance_status.unit).toMatchObject({ junit: { failures: 1 } });

    const policy = `package policy

import rego.v1

unit := input.trail.compliance_status.attestations_statuses.unit

default allow := false

allow if unit.junit.failures == 0

violations contains sprintf("%d of %d tests failed", [unit.junit.failures, unit.junit.total]) if not allow
`;
    const evaluation = await t
      .http()
      .post(`/api/v2/evaluations/${org.name}`)
      .set(...bearer(org.adminKey))
      .send({ context: { trails: [{ flow, trail: 't1' }] }, policy: { files: { 'policy.rego': policy } } })
      .expect(201);
    expect(evaluation.body.status).toBe('completed');
    expect(evaluation.body.result).toMatchObject({ allow: false, violations: ['1 of 5 tests failed'] });
  });

  it('fires ON_ATTESTATION for a junit attestation, with its verdict', async () => {
    const flow = uniqueName('flow');
    await t.http().put(`/api/v2/flows/${org.name}`).set(...bearer(org.adminKey)).send({ name: flow }).expect(201);
    const path = `/${uniqueName('junit-hook')}`;
    await t
      .http()
      .put(`/api/v2/actions/${org.name}/flows`)
      .set(...bearer(org.adminKey))
      .send({ name: 'on-attestation', flows: [flow], triggers: ['ON_ATTESTATION'], targets: [{ type: 'WEBHOOK', webhook: receiver.url(path) }] })
      .expect(201);
    await junit(flow, 't1', { junit_results: JEST_RESULTS }, { content: fixture('jest-junit.xml'), filename: 'junit.xml' }).expect(201);
    const [delivered] = await waitFor(() => {
      const got = receiver.received.filter((r) => r.path === path);
      return got.length ? got : undefined;
    }, { timeoutMs: 30_000, what: 'the ON_ATTESTATION delivery' });
    expect(delivered.json.type).toBe('attestation.recorded');
    expect(delivered.json.data).toMatchObject({ attestation_name: 'unit', attestation_type: 'junit', is_compliant: false });
  });
});
