import { createHmac } from 'node:crypto';
import { addMember, bearer, createOrg, TestOrg } from '../../support/factories';
import { startTestApp, TestApp } from '../../support/test-app';
import { countRows } from '../../support/attestation-helpers';
import { fixture, readSlot } from './typed-helpers';

const SHA = 'ae08fc6a5c963ae8dfaa0c27d8e5de9980d433b6';

describe('SonarQube webhook', () => {
  let t: TestApp;
  let org: TestOrg;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    org = await createOrg(t);
  });

  const createHook = async (options: object = {}) =>
    (await t.http().post(`/api/v2/integrations/${org.name}/sonar`).set(...bearer(org.adminKey)).send(options).expect(201)).body;
  /** Posts as SonarQube does: the JSON body, signed with the hook's secret. */
  const deliver = (hook: { hook_uid: string; secret: string }, body: string, signature = createHmac('sha256', hook.secret).update(body).digest('hex')) =>
    t.http().post(`/api/v2/webhooks/sonar/${hook.hook_uid}`).set('Content-Type', 'application/json').set('X-Sonar-Webhook-HMAC-SHA256', signature).send(body);
  const attestationsOfOrg = () => countRows(t, `SELECT 1 FROM attestations a JOIN organizations o ON o.id = a.org_id WHERE o.name = $1`, [org.name]);

  it('an admin creates a hook (its secret shown once); SonarQube\'s signed analysis becomes a sonar attestation where its properties say', async () => {
    const hook = await createHook();
    expect(hook).toMatchObject({ hook_uid: expect.stringMatching(/^[a-f0-9]{32}$/), secret: expect.any(String), flow_name_from: 'key' });
    expect(hook.webhook_url).toMatch(new RegExp(`/api/v2/webhooks/sonar/${hook.hook_uid}$`));
    const listed = await t.http().get(`/api/v2/integrations/${org.name}/sonar`).set(...bearer(org.adminKey)).expect(200);
    expect(listed.body).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain(hook.secret);

    const body = fixture('sonarqube-webhook-failed.json').toString('utf8');
    const res = await deliver(hook, body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: `sonar attestation 'code-quality' was reported to trail '${SHA}' of flow 'shop-api-ci'`, is_compliant: false });
    const a = await readSlot(t, org.adminKey, org.name, 'shop-api-ci', SHA, 'code-quality');
    expect(a).toMatchObject({
      attestation_type: 'sonar',
      is_compliant: false,
      reported_by: 'SonarQube webhook',
      git_commit_info: { sha1: SHA },
      sonar: { quality_gate_status: 'ERROR', failed_conditions: [{ metric: 'new_coverage' }] },
      compliance_reasons: [expect.stringMatching(/^quality gate 'Sonar way' is ERROR/)],
    });
    expect(a.sonar_results.properties['sonar.analysis.kosli_flow']).toBe('shop-api-ci');
  });

  it('names the flow from the project key with the hook\'s prefix, and the trail from the revision, without properties', async () => {
    const hook = await createHook({ flow_name_prefix: 'sonar-' });
    const { properties: _p, ...analysis } = JSON.parse(fixture('sonarqube-webhook-failed.json').toString('utf8'));
    const passed = { ...analysis, project: { ...analysis.project, key: 'shop:api' }, qualityGate: { name: 'Sonar way', status: 'OK', conditions: [] } };
    await deliver(hook, JSON.stringify(passed)).expect(200);
    expect(await readSlot(t, org.adminKey, org.name, 'sonar-shop-api', SHA, 'sonar')).toMatchObject({ is_compliant: true, sonar: { project_key: 'shop:api' } });
  });

  it('401 for a wrong or missing signature, 404 for an unknown or deleted hook, 400 for a payload that is not an analysis: nothing stored', async () => {
    const hook = await createHook();
    const body = fixture('sonarqube-webhook-failed.json').toString('utf8');
    const forged = await deliver(hook, body, createHmac('sha256', 'not-the-secret').update(body).digest('hex'));
    expect([forged.status, forged.body.message]).toEqual([401, 'The X-Sonar-Webhook-HMAC-SHA256 header is missing or does not match the webhook secret']);
    const unsigned = await t.http().post(`/api/v2/webhooks/sonar/${hook.hook_uid}`).set('Content-Type', 'application/json').send(body);
    expect(unsigned.status).toBe(401);
    const notAnalysis = await deliver(hook, JSON.stringify({ project: { key: 'k' } }));
    expect([notAnalysis.status, Object.keys(notAnalysis.body.errors).sort()]).toEqual([400, ['analysedAt', 'project.url', 'revision']]);
    const badTrail = JSON.stringify({ ...JSON.parse(body), properties: { 'sonar.analysis.kosli_trail': 'no spaces allowed' } });
    const bad = await deliver(hook, badTrail);
    expect([bad.status, Object.keys(bad.body.errors)]).toEqual([400, ['properties.sonar.analysis.kosli_trail']]);
    const unknown = await deliver({ hook_uid: 'f'.repeat(32), secret: hook.secret }, body);
    expect([unknown.status, unknown.body.message]).toEqual([404, 'Sonar webhook not found']);
    expect(await attestationsOfOrg()).toBe(0);

    await t.http().delete(`/api/v2/integrations/${org.name}/sonar/${hook.hook_uid}`).set(...bearer(org.adminKey)).expect(200);
    expect((await deliver(hook, body)).status).toBe(404);
    expect((await t.http().delete(`/api/v2/integrations/${org.name}/sonar/${hook.hook_uid}`).set(...bearer(org.adminKey))).status).toBe(404);
  });

  it('only an org admin manages hooks; another org\'s admin cannot delete them', async () => {
    const member = await addMember(t, org.name, 'member');
    expect((await t.http().post(`/api/v2/integrations/${org.name}/sonar`).set(...bearer(member)).send({})).status).toBe(403);
    expect((await t.http().get(`/api/v2/integrations/${org.name}/sonar`).set(...bearer(member))).status).toBe(403);
    const hook = await createHook();
    const other = await createOrg(t);
    expect((await t.http().delete(`/api/v2/integrations/${other.name}/sonar/${hook.hook_uid}`).set(...bearer(other.adminKey))).status).toBe(404);
    const bad = await t.http().post(`/api/v2/integrations/${org.name}/sonar`).set(...bearer(org.adminKey)).send({ flow_name_from: 'title' });
    expect([bad.status, Object.keys(bad.body.errors)]).toEqual([400, ['flow_name_from']]);
  });
});
