import { bearer, createOrg } from '../support/factories';
import { startTestApp, TestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait';
import { sessionsWaiting, sessionsWaitingOn } from '../support/locks';

/** The first three commands of a new user (README): create an org, enable features, add a member. */
describe('operator bootstrap', () => {
  let t: TestApp;
  const op = () => bearer(t.adminToken);

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('creates an org with its admin and shows the admin key once', async () => {
    const name = uniqueName('acme');
    const res = await t
      .http()
      .post('/api/v2/admin/organizations')
      .set(...op())
      .send({ name, features: ['trail_moments', 'evaluations'], admin: { email: 'Ann@Example.com' } })
      .expect(201);
    expect(res.body).toEqual({
      name,
      region: 'eu',
      features: ['evaluations', 'trail_moments'],
      created_at: expect.any(Number),
      admin: { email: 'ann@example.com', api_key: expect.stringMatching(/^vtk_[A-Za-z0-9_-]{43}$/) },
    });
    const stored = await t.dataSource.query(`SELECT key_hash FROM api_keys`);
    expect(JSON.stringify(stored)).not.toContain(res.body.admin.api_key);
    await t.http().get(`/api/v2/organizations/${name}`).set(...bearer(res.body.admin.api_key)).expect(200);
  });

  it('a duplicate org name is 409 and leaves nothing half-created', async () => {
    const org = await createOrg(t);
    const before = await t.dataSource.query(`SELECT count(*)::int AS n FROM users`);
    const res = await t
      .http()
      .post('/api/v2/admin/organizations')
      .set(...op())
      .send({ name: org.name, admin: { email: `${uniqueName('new')}@example.com` } });
    expect(res.status).toBe(409);
    const after = await t.dataSource.query(`SELECT count(*)::int AS n FROM users`);
    expect(after[0].n).toBe(before[0].n);
  });

  it('patches features, which the beta guard sees at once', async () => {
    const org = await createOrg(t);
    const res = await t.http().patch(`/api/v2/admin/organizations/${org.name}`).set(...op()).send({ features: ['controls'] });
    expect(res.status).toBe(200);
    expect(res.body.features).toEqual(['controls']);
    const read = await t.http().get(`/api/v2/organizations/${org.name}`).set(...bearer(org.adminKey));
    expect(read.body.features).toEqual(['controls']);
  });

  it('adds members with a role; adding the same member twice is 409; unknown org is 404', async () => {
    const org = await createOrg(t);
    const email = `${uniqueName('bob')}@example.com`;
    const res = await t.http().post(`/api/v2/admin/organizations/${org.name}/members`).set(...op()).send({ email, role: 'reader' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ email, role: 'reader', api_key: expect.stringMatching(/^vtk_/) });
    const again = await t.http().post(`/api/v2/admin/organizations/${org.name}/members`).set(...op()).send({ email, role: 'admin' });
    expect(again.status).toBe(409);
    const missing = await t.http().post(`/api/v2/admin/organizations/nope-${uniqueName('x')}/members`).set(...op()).send({ email, role: 'admin' });
    expect(missing.status).toBe(404);
    const bad = await t.http().post(`/api/v2/admin/organizations/${org.name}/members`).set(...op()).send({ email: 'not-an-email', role: 'owner' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['email', 'role']);
  });

  it('two concurrent adds of one existing user: one 201, one 409, one membership and one new key', async () => {
    const org = await createOrg(t);
    const email = `${uniqueName('twice')}@example.com`;
    await t.http().post(`/api/v2/admin/organizations/${(await createOrg(t)).name}/members`).set(...op()).send({ email, role: 'member' }).expect(201);
    const [{ id: userId }] = await t.dataSource.query(`SELECT id FROM users WHERE email = $1`, [email]);
    const keysBefore = (await t.dataSource.query(`SELECT count(*)::int AS n FROM api_keys WHERE user_id = $1`, [userId]))[0].n;
    // Hold the user's row: each add's membership insert waits on it (its foreign key check), after both found
    // no membership; the second insert also waits for the first one's row. Then let both go.
    const q = t.dataSource.createQueryRunner();
    await q.connect();
    let adds: Promise<Array<{ status: number; body: any }>>;
    try {
      await q.startTransaction();
      const [{ pid }] = await q.query(`SELECT pg_backend_pid() AS pid`);
      await q.query(`SELECT id FROM users WHERE id = $1 FOR UPDATE`, [userId]);
      const add = () => t.http().post(`/api/v2/admin/organizations/${org.name}/members`).set(...op()).send({ email, role: 'reader' }).then((r) => r);
      adds = Promise.all([add(), add()]);
      await waitFor(async () => (await sessionsWaitingOn(t.dataSource, pid)) >= 1 && (await sessionsWaiting(t.dataSource)) >= 2, { what: 'both adds waiting' });
      await q.commitTransaction();
    } finally {
      if (q.isTransactionActive) await q.rollbackTransaction();
      await q.release();
    }
    const results = await adds!;
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.status === 409)!.body.message).toContain('is already a member');
    expect((await t.dataSource.query(`SELECT count(*)::int AS n FROM memberships m JOIN organizations o ON o.id = m.org_id WHERE o.name = $1 AND m.user_id = $2`, [org.name, userId]))[0].n).toBe(1);
    expect((await t.dataSource.query(`SELECT count(*)::int AS n FROM api_keys WHERE user_id = $1`, [userId]))[0].n).toBe(keysBefore + 1);
  });
});
