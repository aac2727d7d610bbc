import { Role } from '../../src/common/auth/principal';
import { TestApp, uniqueName } from './test-app';

export interface TestOrg {
  name: string;
  adminKey: string;
  adminEmail: string;
}

/** A fresh organization with its first admin, through the operator routes, as a new user would. */
export async function createOrg(
  t: TestApp,
  options: { features?: string[]; region?: string; name?: string } = {},
): Promise<TestOrg> {
  const name = options.name ?? uniqueName('org');
  const adminEmail = `${name}-admin@example.com`;
  const res = await t
    .http()
    .post('/api/v2/admin/organizations')
    .set('Authorization', `Bearer ${t.adminToken}`)
    .send({ name, features: options.features ?? [], region: options.region, admin: { email: adminEmail } })
    .expect(201);
  return { name, adminKey: res.body.admin.api_key, adminEmail };
}

export async function addMember(t: TestApp, org: string, role: Role, email?: string): Promise<string> {
  const res = await t
    .http()
    .post(`/api/v2/admin/organizations/${org}/members`)
    .set('Authorization', `Bearer ${t.adminToken}`)
    .send({ email: email ?? `${uniqueName(role)}@example.com`, role })
    .expect(201);
  return res.body.api_key;
}

export function bearer(key: string): [string, string] {
  return ['Authorization', `Bearer ${key}`];
}
