import { randomBytes } from 'node:crypto';
import type { Test } from 'supertest';
import { BETA_FEATURES } from '../../src/common/auth/principal';
import { bearer, createOrg, TestOrg } from '../support/factories';
import { TestApp } from '../support/test-app';

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** One organization with a little of everything the MCP tools answer about. */
export interface McpWorld {
  org: TestOrg;
  flow: string;
  /** A trail with a compliant attestation and an artifact. */
  trail: string;
  /** A trail with a failing attestation and an overridden one: it stays non-compliant. */
  failingTrail: string;
  fingerprint: string;
  /** An artifact of the failing trail, running in `env` too. */
  failingFingerprint: string;
  commit: string;
  artifactName: string;
  env: string;
  policyName: string;
  control: string;
  evaluationId: string;
  attestationId: string;
}

/** Seeds the world through the public API, as a user would. */
export async function seedWorld(t: TestApp, label = 'w'): Promise<McpWorld> {
  const org = await createOrg(t, { features: [...BETA_FEATURES] });
  const id = hex(3);
  const w: McpWorld = {
    org,
    flow: `${label}-flow-${id}`,
    trail: `${label}-trail-${id}`,
    failingTrail: `${label}-failing-${id}`,
    fingerprint: hex(32),
    failingFingerprint: hex(32),
    commit: hex(20),
    artifactName: `${label}-image-${id}`,
    env: `${label}-env-${id}`,
    policyName: `${label}-policy-${id}`,
    control: `CTRL-${label}-${id}`,
    evaluationId: '',
    attestationId: '',
  };
  const as = (req: Test) => req.set(...bearer(org.adminKey));
  await as(t.http().put(`/api/v2/flows/${org.name}`)).send({ name: w.flow, visibility: 'private' }).expect(201);
  for (const trail of [w.trail, w.failingTrail]) {
    await as(t.http().put(`/api/v2/trails/${org.name}/${w.flow}`)).field('data_json', JSON.stringify({ name: trail })).expect(201);
  }
  await as(t.http().post(`/api/v2/artifacts/${org.name}/${w.flow}`))
    .send({ fingerprint: w.fingerprint, filename: w.artifactName, trail_name: w.trail, template_reference_name: 'image', git_commit: w.commit })
    .expect(201);
  await as(t.http().post(`/api/v2/artifacts/${org.name}/${w.flow}`))
    .send({ fingerprint: w.failingFingerprint, filename: `${w.artifactName}-bad`, trail_name: w.failingTrail, template_reference_name: 'image' })
    .expect(201);
  await as(t.http().post(`/api/v2/attestations/${org.name}/${w.flow}/trail/${w.trail}/generic`))
    .field('data_json', JSON.stringify({ attestation_name: 'tests', is_compliant: true }))
    .expect(201);
  await as(t.http().post(`/api/v2/attestations/${org.name}/${w.flow}/trail/${w.failingTrail}/generic`))
    .field('data_json', JSON.stringify({ attestation_name: 'tests', is_compliant: false }))
    .expect(201);
  await as(t.http().post(`/api/v2/attestations/${org.name}/${w.flow}/trail/${w.failingTrail}/generic`))
    .field('data_json', JSON.stringify({ attestation_name: 'review', is_compliant: false }))
    .expect(201);
  await as(t.http().post(`/api/v2/attestations/${org.name}/${w.flow}/trail/${w.failingTrail}/override`))
    .send({ attestation_name: 'review', reason: 'reviewed by hand', new_compliance_status: true, original_attestation_type: 'generic' })
    .expect(201);
  const list = await as(t.http().get(`/api/v2/attestations/${org.name}/${w.flow}`)).expect(200);
  w.attestationId = list.body.data.find((x: any) => x.attestation_name === 'tests' && x.trail_name === w.trail)?.attestation_id ?? list.body.data[0].attestation_id;
  await as(t.http().post(`/api/v2/controls/${org.name}`)).send({ identifier: w.control, name: 'Tests pass' }).expect(201);
  const evaluation = await as(t.http().post(`/api/v2/evaluations/${org.name}`))
    .send({
      context: { trails: [{ flow: w.flow, trail: w.trail }] },
      policy: { files: { 'policy.rego': 'package policy\n\nallow := true\n' } },
      decision: { control: w.control, name: 'tests-decision', flow: w.flow, trail: w.trail },
    })
    .expect(201);
  w.evaluationId = evaluation.body.id;
  await as(t.http().put(`/api/v2/environments/${org.name}`)).send({ name: w.env, type: 'K8S' }).expect(201);
  const pod = (fp: string, n: number) => ({ podName: `pod-${n}`, namespace: 'prod', digests: { [`img-${n}`]: fp }, creationTimestamp: 1700000000 + n });
  await as(t.http().put(`/api/v2/environments/${org.name}/${w.env}/report/K8S`)).send({ artifacts: [pod(w.fingerprint, 1)] }).expect(201);
  await as(t.http().put(`/api/v2/environments/${org.name}/${w.env}/report/K8S`))
    .send({ artifacts: [pod(w.fingerprint, 1), pod(w.failingFingerprint, 2)] })
    .expect(201);
  await as(t.http().put(`/api/v2/policies/${org.name}`))
    .field('payload', JSON.stringify({ name: w.policyName, description: 'compliant trails only' }))
    .attach('policy_file', Buffer.from('_schema: https://docs.kosli.com/schemas/policy/v1\nartifacts:\n  provenance:\n    required: true\n  trail-compliance:\n    required: true\n'), 'p.yaml')
    .expect(201);
  await as(t.http().post(`/api/v2/environments/${org.name}/${w.env}/policies`)).send({ policy_names: [w.policyName] }).expect(200);
  return w;
}
