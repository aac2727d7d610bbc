import { bearer, createOrg, TestOrg } from './factories';
import { TestApp } from './test-app';
import { postGeneric } from './attestation-helpers';

export const ALLOW_IF_UNIT_PASSES = `package policy

import rego.v1

default allow := false

allow if input.trail.compliance_status.attestations_statuses.unit.is_compliant

violations contains "unit tests did not pass" if not allow
`;

/** An org with evaluations and controls on, a flow `app` and trail `t1` with a compliant `unit` attestation. */
export async function evaluationWorld(t: TestApp, features = ['evaluations', 'controls', 'trail_moments']): Promise<TestOrg> {
  const org = await createOrg(t, { features });
  await t.http().put(`/api/v2/flows/${org.name}`).set(...bearer(org.adminKey)).send({ name: 'app' }).expect(201);
  await t.http().put(`/api/v2/trails/${org.name}/app`).set(...bearer(org.adminKey)).field('data_json', JSON.stringify({ name: 't1' })).expect(201);
  await postGeneric(t, org.adminKey, org.name, 'app', 't1', { attestation_name: 'unit', is_compliant: true }).expect(201);
  return org;
}

export function evaluate(t: TestApp, org: TestOrg, body: unknown, key = org.adminKey) {
  return t.http().post(`/api/v2/evaluations/${org.name}`).set(...bearer(key)).send(body as object);
}

export async function createControl(t: TestApp, org: TestOrg, identifier: string): Promise<void> {
  await t.http().post(`/api/v2/controls/${org.name}`).set(...bearer(org.adminKey)).send({ identifier, name: `Control ${identifier}` }).expect(201);
}
