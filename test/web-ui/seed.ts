import { postGeneric } from '../support/attestation-helpers';
import { envApi, pod } from '../support/env-helpers';
import { ALLOW_IF_UNIT_PASSES, createControl, evaluate } from '../support/evaluation-helpers';
import { bearer, createOrg, TestOrg } from '../support/factories';
import { TestApp } from '../support/test-app';
import { evidenceClient, fingerprint } from '../support/trail-helpers';

export const XSS = `<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>`;

export const SEED_TEMPLATE = `version: 1
trail:
  attestations:
    - name: pull-request
      type: generic
  artifacts:
    - name: backend
      attestations:
        - name: unit-test
          type: generic
`;

export interface SeededOrg {
  org: TestOrg;
  policy: string;
  flow: string;
  trail: string;
  fp: string;
  evaluationId: string;
  /** the evaluation's policy.rego, as sent */
  rego: string;
}

/**
 * One org as a user would build it through the API: a flow with a template, a trail with an artifact, a compliant
 * and a failing attestation (one with an attachment), an environment with two snapshots, a control and an
 * evaluation. With `hostile`, names and values hold markup and script.
 */
export async function seedOrg(t: TestApp, options: { hostile?: boolean } = {}): Promise<SeededOrg> {
  const org = await createOrg(t, { features: ['evaluations', 'controls', 'trail_moments'] });
  const c = evidenceClient(t, org);
  const x = options.hostile ? XSS : '';
  const flow = 'app';
  const trail = 't1';
  const fp = fingerprint('a');
  await c.createFlow(flow, SEED_TEMPLATE).expect(201);
  await t.http().put(`/api/v2/flows/${org.name}`).set(...bearer(org.adminKey)).send({ name: flow, description: `The app ${x}` }).expect(200);
  await c.beginTrail(flow, { name: trail, description: `First trail ${x}`, user_data: { note: x || 'plain' } }).expect(201);
  await c.reportArtifact(flow, { fingerprint: fp, filename: `acme/web:1${x}`, trail_name: trail, template_reference_name: 'backend', git_commit: 'c'.repeat(40) }).expect(201);
  await postGeneric(t, org.adminKey, org.name, flow, trail, {
    attestation_name: 'pull-request',
    is_compliant: true,
    user_data: { title: `Reviewed ${x}` },
    annotations: { reviewer: `alice ${x}` },
  }, { content: Buffer.from(`evidence file ${x}`), filename: 'evidence.txt', contentType: 'text/plain' }).expect(201);
  await postGeneric(t, org.adminKey, org.name, flow, trail, {
    attestation_name: 'unit-test',
    artifact_fingerprint: fp,
    is_compliant: false,
    user_data: { failed: 3 },
  }).expect(201);
  await postGeneric(t, org.adminKey, org.name, flow, trail, { attestation_name: 'unit', is_compliant: true }).expect(201);
  const env = envApi(t, org);
  await env.create({ name: 'prod', type: 'K8S', description: `Production ${x}` }).expect(201);
  await env.report('prod', 'K8S', { artifacts: [pod('web-a', { web: fp })] }).expect(201);
  await env.report('prod', 'K8S', { artifacts: [pod('web-a', { web: fp }), pod('db-a', { db: fingerprint('d') })] }).expect(201);
  const policy = `_schema: https://docs.kosli.com/schemas/policy/v1\n# owner: platform ${x.replace(/\n/g, ' ')}\nartifacts:\n  provenance:\n    required: true\n`;
  await t
    .http()
    .put(`/api/v2/policies/${org.name}`)
    .set(...bearer(org.adminKey))
    .field('payload', JSON.stringify({ name: 'prod-requirements', description: 'prod', type: 'env', comment: '' }))
    .attach('policy_file', Buffer.from(policy), 'policy.yaml')
    .expect(201);
  await t.http().post(`/api/v2/environments/${org.name}/prod/policies`).set(...bearer(org.adminKey)).send({ policy_names: ['prod-requirements'] }).expect(200);
  await createControl(t, org, 'SOC2-CC8');
  const rego = `# reviewed by ${x || 'the platform team'}\n${ALLOW_IF_UNIT_PASSES}`;
  const evaluation = await evaluate(t, org, {
    context: { trails: [{ flow, trail }] },
    policy: { files: { 'policy.rego': rego } },
    decision: { control: 'SOC2-CC8', name: 'change-approved', flow, trail },
  });
  if (evaluation.status >= 300) throw new Error(`evaluation: ${evaluation.status} ${JSON.stringify(evaluation.body)}`);
  return { org, policy, flow, trail, fp, evaluationId: evaluation.body.id ?? evaluation.body.evaluation_id, rego };
}
