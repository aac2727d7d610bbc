import { createHash, randomUUID } from 'node:crypto';
import { addMember, bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { ALLOW_IF_UNIT_PASSES, evaluate, evaluationWorld } from '../support/evaluation-helpers';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** GET /evaluations/{org}/{id}/policy: the bundle an evaluation ran, as sent, with its digests. */
describe('an evaluation policy', () => {
  let t: TestApp;
  let org: TestOrg;
  const files = {
    'policy.rego': ALLOW_IF_UNIT_PASSES,
    'limits/data.json': '{"max": 3, "note": "<b>as sent</b>"}',
  };

  beforeAll(async () => {
    t = await startTestApp();
    org = await evaluationWorld(t);
  });
  afterAll(() => t.close());

  const policyOf = (id: string, key = org.adminKey, orgName = org.name) =>
    t.http().get(`/api/v2/evaluations/${orgName}/${id}/policy`).set(...bearer(key));

  it('answers the files exactly as sent, each file digest, and the digest the evaluation records', async () => {
    const created = await evaluate(t, org, { context: { trails: [{ flow: 'app', trail: 't1' }] }, policy: { files } }).expect(201);
    const reader = await addMember(t, org.name, 'reader');
    const res = await policyOf(created.body.id, reader);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      evaluation_id: created.body.id,
      digest: created.body.verification.policy_digest,
      files,
      file_digests: { 'limits/data.json': sha256(files['limits/data.json']), 'policy.rego': sha256(ALLOW_IF_UNIT_PASSES) },
    });
    // Anyone can re-derive the bundle digest from what was served: sha256 of the sorted file digests as JSON.
    const sorted = Object.fromEntries(Object.entries(res.body.file_digests as Record<string, string>).sort(([a], [b]) => (a < b ? -1 : 1)));
    expect(`sha256:${sha256(JSON.stringify(sorted))}`).toBe(res.body.digest);
  });

  it('answers the bundle of a failed evaluation too (what failed is worth reading)', async () => {
    const broken = { 'policy.rego': 'package policy\n\nallow if {' };
    const created = await evaluate(t, org, { context: { trails: [{ flow: 'app', trail: 't1' }] }, policy: { files: broken } }).expect(201);
    expect(created.body.status).toBe('failed');
    const res = await policyOf(created.body.id).expect(200);
    expect(res.body.files).toEqual(broken);
  });

  it('is 404 for an unknown evaluation and for another org\'s, 403 without the beta flag', async () => {
    const created = await evaluate(t, org, { context: { trails: [{ flow: 'app', trail: 't1' }] }, policy: { files } }).expect(201);
    expect((await policyOf(randomUUID())).status).toBe(404);
    const other = await evaluationWorld(t);
    const foreign = await policyOf(created.body.id, other.adminKey, other.name);
    expect([foreign.status, foreign.body.message]).toEqual([404, `Evaluation '${created.body.id}' not found`]);
    const off = await createOrg(t, { features: [] });
    const gated = await policyOf(created.body.id, off.adminKey, off.name);
    expect(gated.status).toBe(403);
    expect(gated.body.message).toMatch(/evaluations/);
  });
});
