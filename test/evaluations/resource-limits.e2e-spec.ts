import { startTestApp, TestApp } from '../support/test-app';
import { TestOrg } from '../support/factories';
import { evaluate, evaluationWorld } from '../support/evaluation-helpers';

/**
 * A cap the Rego engine imposes to protect the service is not an answer: an evaluation whose policy hits one
 * fails with `policy_resource_limit` (as with the deadline and the heap cap), and never completes with the
 * verdict the capped call would have flipped.
 */
describe('evaluations: engine protections', () => {
  let t: TestApp;
  let org: TestOrg;
  beforeAll(async () => {
    t = await startTestApp();
    org = await evaluationWorld(t);
  });
  afterAll(() => t.close());

  const run = (rego: string) => evaluate(t, org, { context: { trails: [{ flow: 'app', trail: 't1' }] }, policy: { files: { 'p.rego': rego } } }).expect(201);

  it('a range above the cap fails the evaluation instead of answering allow = true', async () => {
    const res = await run('package policy\n\nimport rego.v1\n\nbig := [i | some i in numbers.range(1, 200000000)]\n\ndeny if count(big) > 0\n\nallow if not deny\n');
    expect(res.body).toMatchObject({ status: 'failed', error: { kind: 'policy_resource_limit' } });
    expect(res.body.error.message).toMatch(/numbers\.range: range of 200000000 numbers exceeds the limit of 10000000/);
    expect(res.body).not.toHaveProperty('result');
  });

  it('a CIDR block above the expansion cap fails the evaluation too', async () => {
    const res = await run('package policy\n\nimport rego.v1\n\ndeny if count(net.cidr_expand("10.0.0.0/8")) > 1000\n\nallow if not deny\n');
    expect(res.body).toMatchObject({ status: 'failed', error: { kind: 'policy_resource_limit' } });
    expect(res.body.error.message).toMatch(/net\.cidr_expand: CIDR 10\.0\.0\.0\/8 expands to 16777216 addresses/);
  });

  it('the same policy under the caps completes', async () => {
    const res = await run('package policy\n\nimport rego.v1\n\ndeny if count(net.cidr_expand("10.0.0.0/30")) > 1000\n\nallow if not deny\n');
    expect(res.body).toMatchObject({ status: 'completed', result: { allow: true } });
  });
});
