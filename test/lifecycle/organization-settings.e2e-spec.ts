import { BETA_FEATURES } from '../../src/common/auth/principal';
import { addMember, bearer, createOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

describe('experimental features and the default organization', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('PUT /organizations/{org}/experimental_features: an org admin turns every beta feature on, then off', async () => {
    const org = await createOrg(t);
    const on = await t.http().put(`/api/v2/organizations/${org.name}/experimental_features`).set(...bearer(org.adminKey)).send({ experimental_features_enabled: true }).expect(200);
    expect(on.body).toBe(`Experimental features enabled for organization '${org.name}'`);
    expect((await t.http().get(`/api/v2/organizations/${org.name}`).set(...bearer(org.adminKey)).expect(200)).body.features.sort()).toEqual([...BETA_FEATURES].sort());
    // A beta route now answers (it was 403 before).
    await t.http().get(`/api/v2/controls/${org.name}`).set(...bearer(org.adminKey)).expect(200);
    await t.http().put(`/api/v2/organizations/${org.name}/experimental_features`).set(...bearer(org.adminKey)).send({ experimental_features_enabled: false }).expect(200);
    expect((await t.http().get(`/api/v2/organizations/${org.name}`).set(...bearer(org.adminKey)).expect(200)).body.features).toEqual([]);
    await t.http().get(`/api/v2/controls/${org.name}`).set(...bearer(org.adminKey)).expect(403);

    const member = await addMember(t, org.name, 'member');
    await t.http().put(`/api/v2/organizations/${org.name}/experimental_features`).set(...bearer(member)).send({ experimental_features_enabled: true }).expect(403);
    const bad = await t.http().put(`/api/v2/organizations/${org.name}/experimental_features`).set(...bearer(org.adminKey)).send({ experimental_features_enabled: 'yes' }).expect(400);
    expect(bad.body.errors).toHaveProperty(['experimental_features_enabled']);
  });

  it('PUT /user/{org}: the caller chooses one default organization among theirs; a service account has none', async () => {
    const first = await createOrg(t);
    const second = await createOrg(t);
    const email = `${first.name}-both@example.com`;
    const key = (await t.http().post(`/api/v2/admin/organizations/${first.name}/members`).set('Authorization', `Bearer ${t.adminToken}`).send({ email, role: 'reader' }).expect(201)).body.api_key;
    await t.http().post(`/api/v2/admin/organizations/${second.name}/members`).set('Authorization', `Bearer ${t.adminToken}`).send({ email, role: 'reader' }).expect(201);
    const isDefault = async (org: string) => (await t.http().get(`/api/v2/organizations/${org}`).set(...bearer(key)).expect(200)).body.is_default;

    expect([await isDefault(first.name), await isDefault(second.name)]).toEqual([false, false]);
    expect((await t.http().put(`/api/v2/user/${first.name}`).set(...bearer(key)).expect(200)).body).toBe(`Default organization set to '${first.name}'`);
    expect([await isDefault(first.name), await isDefault(second.name)]).toEqual([true, false]);
    await t.http().put(`/api/v2/user/${second.name}`).set(...bearer(key)).expect(200);
    expect([await isDefault(first.name), await isDefault(second.name)]).toEqual([false, true]);

    const account = await t.http().post(`/api/v2/service-accounts/${first.name}`).set(...bearer(first.adminKey)).send({ name: 'bot', privilege: 'reader' }).expect(201);
    expect(account.body.name).toBe('bot');
    const botKey = (await t.http().post(`/api/v2/service-accounts/${first.name}/bot/api-keys`).set(...bearer(first.adminKey)).send({ description: 'k' }).expect(201)).body.key;
    expect(botKey).toEqual(expect.any(String));
    await t.http().put(`/api/v2/user/${first.name}`).set(...bearer(botKey)).expect(403);
    await t.http().put(`/api/v2/user/${first.name}`).set(...bearer(second.adminKey)).expect(403); // not a member
  });
});
