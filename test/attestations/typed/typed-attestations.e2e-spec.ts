import { createOrg, TestOrg } from '../../support/factories';
import { startTestApp, TestApp, uniqueName } from '../../support/test-app';
import { countRows } from '../../support/attestation-helpers';
import { fixture, postTyped, readSlot } from './typed-helpers';

const SHA = 'ae08fc6a5c963ae8dfaa0c27d8e5de9980d433b6';
const json = (name: string) => JSON.parse(fixture(name).toString('utf8'));

/** The CLI's own summary of snyk-code.sarif (what `kosli attest snyk` puts in snyk_results). */
const SNYK_CODE_RESULTS = {
  schema_version: 1,
  tool: { name: 'SnykCode', version: '1.0.0' },
  results: [
    {
      high_count: 1,
      medium_count: 2,
      low_count: 0,
      high: [{ id: 'javascript/Sqli', message: 'Unsanitized input ...', locations: [{ uri: 'src/routes/orders.js', lines: '41-43' }], priority_score: 813 }],
      medium: [
        { id: 'javascript/HardcodedNonCryptoSecret', message: 'Avoid hardcoding ...', locations: [{ uri: 'src/config.js', lines: '7' }], priority_score: 506 },
        { id: 'javascript/NoRateLimitingForExpensiveWebOperation', message: 'This endpoint ...', locations: [{ uri: 'src/routes/upload.js', lines: '12-30' }] },
      ],
    },
  ],
};
const CLEAN = { schema_version: 1, tool: { name: 'Snyk Container', version: '' }, results: [{ high_count: 0, medium_count: 0, low_count: 0 }] };

describe('typed attestations: snyk, jira, sonar, pull_request', () => {
  let t: TestApp;
  let org: TestOrg;
  let flow: string;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    org = await createOrg(t);
    flow = uniqueName('flow');
  });

  const post = (type: string, data: object, attachment?: { content: Buffer; filename: string }) =>
    postTyped(t, org.adminKey, org.name, flow, 't1', type, data, attachment);
  const slot = (name: string) => readSlot(t, org.adminKey, org.name, flow, 't1', name);
  const nothingStored = async () =>
    expect(await countRows(t, `SELECT 1 FROM attestations a JOIN organizations o ON o.id = a.org_id WHERE o.name = $1`, [org.name])).toBe(0);

  describe('snyk', () => {
    it('counts a Snyk Code SARIF by level (a result without one takes its rule level): non-compliant', async () => {
      const res = await post('snyk', { attestation_name: 'sast', snyk_results: SNYK_CODE_RESULTS }, { content: fixture('snyk-code.sarif'), filename: 'snyk.sarif' });
      expect(res.status).toBe(201);
      expect(res.body).toMatch(/^snyk attestation 'sast' was reported to trail 't1'/);
      const a = await slot('sast');
      expect(a).toMatchObject({
        attestation_type: 'snyk',
        is_compliant: false,
        compliance_reasons: ['3 vulnerabilities found: 1 high, 2 medium, 0 low'],
        snyk: { source: 'report', tool: { name: 'SnykCode', version: '1.0.0' }, high: 1, medium: 2, low: 0, total: 3, report_files: ['snyk.sarif'] },
        snyk_results: SNYK_CODE_RESULTS,
      });
      expect(a.snyk.ids.high).toEqual(['javascript/Sqli']);
    });

    it('is compliant for a clean container scan; claims of a clean scan lose to results that are not', async () => {
      await post('snyk', { attestation_name: 'container', snyk_results: CLEAN }, { content: fixture('snyk-container-clean.sarif'), filename: 'container.sarif' }).expect(201);
      expect(await slot('container')).toMatchObject({ is_compliant: true, snyk: { total: 0 } });
      await post('snyk', { attestation_name: 'lying', snyk_results: CLEAN }, { content: fixture('snyk-code.sarif'), filename: 'snyk.sarif' }).expect(201);
      const lying = await slot('lying');
      expect(lying.is_compliant).toBe(false);
      expect(lying.compliance_reasons[1]).toMatch(/snyk_results claims 0 high, 0 medium, 0 low; the attached results have 1, 2, 0/);
    });

    it('reads `snyk test --json` output (critical counts as high); judges snyk_results without an attachment', async () => {
      await post('snyk', { attestation_name: 'deps', snyk_results: CLEAN }, { content: fixture('snyk-test.json'), filename: 'snyk.json' }).expect(201);
      expect(await slot('deps')).toMatchObject({ is_compliant: false, snyk: { high: 2, critical: 1, ids: { high: ['SNYK-JS-LODASH-1040724', 'SNYK-JS-MINIMIST-2429795'] } } });
      await post('snyk', { attestation_name: 'no-upload', snyk_results: SNYK_CODE_RESULTS }).expect(201);
      expect(await slot('no-upload')).toMatchObject({ is_compliant: false, snyk: { source: 'snyk_results', high: 1, medium: 2 }, evidence: null });
    });

    it('answers JSON that is not SARIF, broken JSON and a bad snyk_results with 400, storing nothing', async () => {
      const notSarif = await post('snyk', { attestation_name: 's', snyk_results: CLEAN }, { content: Buffer.from('{"runz": []}'), filename: 'x.sarif' });
      expect([notSarif.status, notSarif.body.errors]).toEqual([400, { attachment_file: 'x.sarif is neither a SARIF report (no "runs") nor Snyk JSON output (no "vulnerabilities")' }]);
      const broken = await post('snyk', { attestation_name: 's', snyk_results: CLEAN }, { content: Buffer.from('{"runs": ['), filename: 'x.sarif' });
      expect([broken.status, broken.body.errors.attachment_file]).toEqual([400, expect.stringMatching(/^x.sarif is not valid JSON/)]);
      const bad = await post('snyk', { attestation_name: 's', snyk_results: { tool: { name: 'x' }, results: [{ high_count: 'one' }] } });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['snyk_results.results[0].high_count', 'snyk_results.results[0].low_count', 'snyk_results.results[0].medium_count', 'snyk_results.tool.version']);
      await nothingStored();
    });
  });

  describe('jira', () => {
    const found = (id: string, exists = true, fields?: object) => ({ issue_id: id, issue_url: `https://shop.atlassian.net/browse/${id}`, issue_exists: exists, ...(fields ? { issue_fields: fields } : {}) });

    it('is compliant when every referenced issue exists; keeps keys, status and summary', async () => {
      await post('jira', { attestation_name: 'ticket', jira_results: [found('SHOP-42', true, json('jira-issue-fields.json'))] }).expect(201);
      expect(await slot('ticket')).toMatchObject({
        attestation_type: 'jira',
        is_compliant: true,
        jira: { issue_keys: ['SHOP-42'], found: ['SHOP-42'], missing: [], issues: [{ key: 'SHOP-42', status: 'In Progress', summary: 'Checkout fails when the basket holds a gift card' }] },
      });
    });

    it('is non-compliant with no reference, or with one Jira does not have (even beside a valid one)', async () => {
      await post('jira', { attestation_name: 'none', jira_results: [] }).expect(201);
      expect(await slot('none')).toMatchObject({ is_compliant: false, compliance_reasons: ['no Jira issue reference was found'] });
      await post('jira', { attestation_name: 'mixed', jira_results: [found('NOTE-1', false), found('SHOP-42')] }).expect(201);
      expect(await slot('mixed')).toMatchObject({ is_compliant: false, compliance_reasons: ['not found in Jira: NOTE-1'], jira: { missing: ['NOTE-1'] } });
    });

    it('400 for a result without issue_exists', async () => {
      const res = await post('jira', { attestation_name: 'x', jira_results: [{ issue_id: 'A-1', issue_url: 'u' }] });
      expect([res.status, Object.keys(res.body.errors)]).toEqual([400, ['jira_results[0].issue_exists']]);
      await nothingStored();
    });
  });

  describe('sonar', () => {
    it('takes the quality gate as the verdict: a failed gate is non-compliant with its failed conditions', async () => {
      const { properties, ...analysis } = json('sonarqube-webhook-failed.json');
      await post('sonar', { attestation_name: 'quality', sonar_results: analysis }).expect(201);
      const a = await slot('quality');
      expect(a).toMatchObject({
        attestation_type: 'sonar',
        is_compliant: false,
        compliance_reasons: ["quality gate 'Sonar way' is ERROR: new_coverage 71.4 (LESS_THAN 80: ERROR)"],
        sonar: { quality_gate_status: 'ERROR', quality_gate_name: 'Sonar way', project_key: 'shop-api', revision: SHA, branch: 'main', condition_count: 5 },
        sonar_results: analysis,
      });
      expect(a.sonar.failed_conditions).toEqual([{ metric: 'new_coverage', status: 'ERROR', value: '71.4', operator: 'LESS_THAN', error_threshold: '80' }]);
      expect(properties).toBeDefined();
    });

    it('is compliant for a passed gate; non-compliant without a gate; 400 for a missing project key', async () => {
      const { properties: _p, ...analysis } = json('sonarqube-webhook-failed.json');
      const passed = { ...analysis, qualityGate: { ...analysis.qualityGate, status: 'OK', conditions: analysis.qualityGate.conditions.map((c: any) => ({ ...c, status: 'OK' })) } };
      await post('sonar', { attestation_name: 'ok', sonar_results: passed }).expect(201);
      expect(await slot('ok')).toMatchObject({ is_compliant: true, sonar: { quality_gate_status: 'OK', failed_conditions: [] } });
      await post('sonar', { attestation_name: 'nogate', sonar_results: { ...analysis, qualityGate: null } }).expect(201);
      expect(await slot('nogate')).toMatchObject({ is_compliant: false, compliance_reasons: ['the analysis has no quality gate'] });
      const bad = await post('sonar', { attestation_name: 'bad', sonar_results: { ...analysis, project: { url: 'u' } } });
      expect([bad.status, bad.body.errors]).toEqual([400, { 'sonar_results.project.key': 'is required' }]);
    });
  });

  describe('pull_request', () => {
    it('records the PRs a GitHub commit has, with approvers and commits in the summary: compliant', async () => {
      const pr = json('github-pull-request.json');
      const res = await post('pull_request', { attestation_name: 'pr', git_provider: 'github', git_commit_info: { sha1: SHA }, pull_requests: [pr] });
      expect(res.status).toBe(201);
      expect(res.body).toMatch(/^pull_request attestation 'pr' was reported/);
      expect(await slot('pr')).toMatchObject({
        attestation_type: 'pull_request',
        is_compliant: true,
        git_provider: 'github',
        pull_requests: [pr],
        pull_request: {
          provider: 'github',
          count: 1,
          urls: ['https://github.com/shop/shop-api/pull/318'],
          states: ['MERGED'],
          approved_count: 1,
          unapproved_urls: [],
          prs: [{ url: pr.url, approvers: ['grace-h'], commit_count: 1, merge_commit: SHA, title: pr.title }],
        },
      });
    });

    it('is non-compliant without a PR; takes the V1 shape (approvers as names)', async () => {
      await post('pull_request', { attestation_name: 'none', git_provider: 'gitlab', git_commit_info: { sha1: SHA }, pull_requests: [] }).expect(201);
      expect(await slot('none')).toMatchObject({ is_compliant: false, compliance_reasons: [`no pull request was found for commit ${SHA}`], pull_request: { count: 0 } });
      await post('pull_request', {
        attestation_name: 'v1',
        git_provider: 'bitbucket',
        pull_requests: [{ url: 'https://bitbucket.org/shop/api/pull-requests/7', state: 'OPEN', merge_commit: '', approvers: [] }],
      }).expect(201);
      expect(await slot('v1')).toMatchObject({ is_compliant: true, pull_request: { approved_count: 0, unapproved_urls: ['https://bitbucket.org/shop/api/pull-requests/7'] } });
    });

    it('400 for an unknown provider and for a PR of neither shape, keyed by path', async () => {
      const provider = await post('pull_request', { attestation_name: 'x', git_provider: 'svn', pull_requests: [] });
      expect([provider.status, Object.keys(provider.body.errors)]).toEqual([400, ['git_provider']]);
      const pr = json('github-pull-request.json');
      const shape = await post('pull_request', { attestation_name: 'x', git_provider: 'github', pull_requests: [{ ...pr, merge_commit: 'nope', commits: [{ message: 'no sha' }] }] });
      expect(shape.status).toBe(400);
      expect(shape.body.errors).toEqual({
        'pull_requests[0].merge_commit': 'must be 40 lowercase hex characters or empty',
        'pull_requests[0].commits[0].sha1': 'is required',
      });
      await nothingStored();
    });
  });
});
