import { BETA_FEATURES } from '../../src/common/auth/principal';
import { addMember, bearer, createOrg } from '../support/factories';
import { OneDefaultOrganization1764191100000 } from '../../src/database/migrations/1764191100000-OneDefaultOrganization';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

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

  /** A user who is a reader of three new orgs, with the third as their default. */
  async function memberOfThree() {
    const orgs = [await createOrg(t), await createOrg(t), await createOrg(t)];
    const email = `${orgs[0].name}-three@example.com`;
    const key = await addMember(t, orgs[0].name, 'reader', email);
    await addMember(t, orgs[1].name, 'reader', email);
    await addMember(t, orgs[2].name, 'reader', email);
    await t.http().put(`/api/v2/user/${orgs[2].name}`).set(...bearer(key)).expect(200);
    const [{ id: userId }] = await t.dataSource.query(`SELECT id FROM users WHERE email = $1`, [email]);
    return { orgs, key, userId: userId as string };
  }

  it('PUT /user/{org} twice at once, to two orgs: one default remains', async () => {
    const { orgs, key, userId } = await memberOfThree();
    // Hold the current default's membership so both calls start before either commits, then let both go.
    const q = t.dataSource.createQueryRunner();
    await q.connect();
    let puts: Promise<Array<{ status: number }>>;
    try {
      await q.startTransaction();
      await q.query(`SELECT 1 FROM memberships m JOIN organizations o ON o.id = m.org_id WHERE m.user_id = $1 AND o.name = $2 FOR UPDATE OF m`, [userId, orgs[2].name]);
      const put = (org: string) => t.http().put(`/api/v2/user/${org}`).set(...bearer(key)).then((r) => r);
      puts = Promise.all([put(orgs[0].name), put(orgs[1].name)]);
      await waitFor(
        async () => (await t.dataSource.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE cardinality(pg_blocking_pids(pid)) > 0`))[0].n >= 2,
        { what: 'both calls waiting' },
      );
      await q.commitTransaction();
    } finally {
      if (q.isTransactionActive) await q.rollbackTransaction();
      await q.release();
    }
    expect((await puts!).map((r) => r.status)).toEqual([200, 200]);
    const defaults = [];
    for (const o of orgs) defaults.push((await t.http().get(`/api/v2/organizations/${o.name}`).set(...bearer(key)).expect(200)).body.is_default);
    expect(defaults.filter(Boolean)).toHaveLength(1);
    expect(defaults[2]).toBe(false);
  });

  it('the migration that repairs two defaults keeps one of the defaults it finds, the oldest membership', async () => {
    const { orgs, userId } = await memberOfThree();
    const ids: string[] = (await t.dataSource.query(`SELECT id FROM organizations WHERE name = ANY($1) ORDER BY name`, [orgs.map((o) => o.name)])).map((r: any) => r.id);
    // As before the migration (in a transaction rolled back: DDL too): every membership a default, then up().
    const q = t.dataSource.createQueryRunner();
    await q.connect();
    try {
      await q.startTransaction();
      await q.query(`DROP INDEX memberships_user_idx`);
      await q.query(`UPDATE memberships SET is_default = true, created_at = now() - (CASE org_id WHEN $2 THEN 1 ELSE 2 END) * interval '1 day' WHERE user_id = $1`, [userId, ids[2]]);
      await new OneDefaultOrganization1764191100000().up(q);
      // orgs 0 and 1 joined on the same (oldest) day: the lower org id of the two keeps the default.
      const kept = await q.query(`SELECT org_id FROM memberships WHERE user_id = $1 AND is_default`, [userId]);
      expect(kept.map((r: any) => r.org_id)).toEqual([[ids[0], ids[1]].sort()[0]]);
    } finally {
      await q.rollbackTransaction();
      await q.release();
    }
  });
});
