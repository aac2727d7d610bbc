import { bearer } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { ALLOW_IF_UNIT_PASSES, createControl, evaluate, evaluationWorld } from './helpers';

describe('evaluations smoke', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp()));
  afterAll(() => t.close());

  it('evaluates a trail and records a decision', async () => {
    const org = await evaluationWorld(t);
    await createControl(t, org, 'CTRL-1');
    const res = await evaluate(t, org, {
      context: { trails: [{ flow: 'app', trail: 't1' }] },
      policy: { files: { 'policy.rego': ALLOW_IF_UNIT_PASSES } },
      decision: { control: 'CTRL-1', name: 'release-gate', flow: 'app', trail: 't1' },
    });
    console.log(JSON.stringify(res.body, null, 1));
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('completed');
    const found = await t.http().get(`/api/v2/attestations/${org.name}?attestation_id=${res.body.decision_attestation_id}`).set(...bearer(org.adminKey));
    console.log(JSON.stringify(found.body, null, 1).slice(0, 3000));
  });
});
