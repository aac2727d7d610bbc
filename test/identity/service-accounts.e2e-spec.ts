import { PgNotifications } from '../../src/database/pg-notifications';
import { hashApiKey } from '../../src/modules/identity/domain/api-key-secret';
import { CREDENTIALS_CHANNEL } from '../../src/modules/identity/domain/credential-change';
import { FakeClock } from '../support/fake-clock';
import { addMember, bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * Service accounts and API keys: the routes (what the open-source CLI calls), and the key lifecycle across two
 * instances of the service on one database: create, use, expire, revoke, rotate with a grace period, delete the
 * account. Both instances run on clocks that stand still unless a test moves them, so a cached key never
 * expires from their caches by itself: when instance B refuses a key revoked through instance A, the change
 * notification did it.
 */
describe('service accounts and API keys', () => {
  let a: TestApp;
  let b: TestApp;
  const clockA = new FakeClock();
  const clockB = new FakeClock();
  let org: TestOrg;

  beforeAll(async () => {
    a = await startTestApp({}, { clock: clockA });
    b = await startTestApp({}, { clock: clockB });
    org = await createOrg(a);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  const admin = () => bearer(org.adminKey);
  const sa = (path = '') => `/api/v2/service-accounts/${org.name}${path}`;
  const whoAmI = (t: TestApp, key: string) => t.http().get(`/api/v2/organizations/${org.name}`).set(...bearer(key));
  const createFlow = (t: TestApp, key: string) =>
    t.http().put(`/api/v2/flows/${org.name}`).set(...bearer(key)).send({ name: uniqueName('flow') });

  async function newAccount(privilege = 'member'): Promise<string> {
    const name = uniqueName('bot');
    await a.http().post(sa()).set(...admin()).send({ name, description: 'CI', privilege }).expect(201);
    return name;
  }

  async function newKey(account: string, body: Record<string, unknown> = { description: 'ci' }): Promise<{ id: string; key: string }> {
    const res = await a.http().post(sa(`/${account}/api-keys`)).set(...admin()).send(body).expect(201);
    return res.body;
  }

  /** A change made in A reaches B through the change notifications, within a second (never by the cache expiring). */
  const seenByB = (check: () => Promise<boolean>, what: string) => waitFor(check, { timeoutMs: 1000, intervalMs: 10, what });
  const refusedBy = (t: TestApp, key: string) => async () => (await whoAmI(t, key)).status === 401;

  describe('service accounts', () => {
    it('create, list, get, update, delete; the CLI fields', async () => {
      const name = uniqueName('ci-bot');
      const created = await a.http().post(sa()).set(...admin()).send({ name, description: 'CI service account', privilege: 'member' }).expect(201);
      expect(created.body).toEqual({
        name,
        description: 'CI service account',
        privilege: 'member',
        created_by: org.adminEmail,
        created_at: expect.any(Number),
      });
      expect(Math.abs(created.body.created_at - Date.now() / 1000)).toBeLessThan(60);
      expect((await a.http().get(sa()).set(...admin()).expect(200)).body.map((x: any) => x.name)).toContain(name);
      expect((await a.http().get(sa(`/${name}`)).set(...admin()).expect(200)).body).toEqual(created.body);

      const updated = await a.http().patch(sa(`/${name}`)).set(...admin()).send({ privilege: 'admin' }).expect(200);
      expect(updated.body).toMatchObject({ name, description: 'CI service account', privilege: 'admin' });
      await a.http().patch(sa(`/${name}`)).set(...admin()).send({ description: 'new' }).expect(200, { ...updated.body, description: 'new' });

      const deleted = await a.http().delete(sa(`/${name}`)).set(...admin()).set('Content-Type', 'application/json').send('null').expect(200);
      expect(deleted.headers['content-type']).toMatch(/^application\/json/);
      expect(typeof deleted.body).toBe('string');
      await a.http().get(sa(`/${name}`)).set(...admin()).expect(404, { message: `Service account '${name}' not found`, errors: null });
      await a.http().delete(sa(`/${name}`)).set(...admin()).expect(404);
    });

    it('refuses a duplicate name (409), a bad privilege or name (400), and non-admins (403)', async () => {
      const name = await newAccount();
      await a.http().post(sa()).set(...admin()).send({ name, privilege: 'reader' }).expect(409);
      const bad = await a.http().post(sa()).set(...admin()).send({ name: uniqueName('x'), privilege: 'owner' }).expect(400);
      expect(Object.keys(bad.body.errors)).toEqual(['privilege']);
      expect((await a.http().post(sa()).set(...admin()).send({ name: '-x', privilege: 'reader' }).expect(400)).body.errors).toHaveProperty('name');
      const member = await addMember(a, org.name, 'member');
      await a.http().post(sa()).set(...bearer(member)).send({ name: uniqueName('x'), privilege: 'reader' }).expect(403);
      await a.http().post(sa(`/${name}/api-keys`)).set(...bearer(member)).send({ description: 'x' }).expect(403);
      // reading is any member's
      await a.http().get(sa(`/${name}/api-keys`)).set(...bearer(member)).expect(200);
    });
  });

  describe('API keys', () => {
    it('create returns the key once; it authenticates as the account with its privilege; list and get never show it', async () => {
      const account = await newAccount('reader');
      const created = await a.http().post(sa(`/${account}/api-keys`)).set(...admin()).send({ description: 'key for CI' }).expect(201);
      expect(created.body).toEqual({ id: expect.any(String), key: expect.stringMatching(/^vtk_/), description: 'key for CI', created_at: expect.any(Number), expires_at: 0 });
      const stored = await a.dataSource.query(`SELECT key_hash FROM api_keys WHERE id = $1`, [created.body.id]);
      expect(stored[0].key_hash.equals(hashApiKey(created.body.key))).toBe(true);

      expect((await whoAmI(a, created.body.key).expect(200)).body.role).toBe('reader');
      await createFlow(a, created.body.key).expect(403);

      const listed = await a.http().get(sa(`/${account}/api-keys`)).set(...admin()).expect(200);
      expect(listed.body).toEqual([{ id: created.body.id, description: 'key for CI', created_at: created.body.created_at, expires_at: 0, last_used_at: expect.any(Number) }]);
      expect(JSON.stringify(listed.body)).not.toContain(created.body.key);
      const one = await a.http().get(sa(`/${account}/api-keys/${created.body.id}`)).set(...admin()).expect(200);
      expect(one.body).toEqual(listed.body[0]);
    });

    it('400 for an expires_at in the past, 404 for an unknown account or key, and the body null on DELETE', async () => {
      const account = await newAccount();
      const past = await a.http().post(sa(`/${account}/api-keys`)).set(...admin()).send({ description: 'x', expires_at: Math.floor(clockA.now() / 1000) - 1 });
      expect(past.status).toBe(400);
      expect(past.body).toEqual({ message: 'Input payload validation failed', errors: { expires_at: 'expires_at cannot be in the past' } });
      await a.http().post(sa(`/${account}/api-keys`)).set(...admin()).send({ description: 'x', expires_at: 0 }).expect(201);
      await a.http().post(sa(`/${account}/api-keys`)).set(...admin()).send({ description: 'x', expires_at: null }).expect(201);
      expect((await a.http().post(sa(`/${account}/api-keys`)).set(...admin()).send({ expires_at: 0 }).expect(400)).body.errors).toEqual({
        description: 'is required',
      });
      await a.http().post(sa(`/no-such-bot/api-keys`)).set(...admin()).send({ description: 'x' }).expect(404, { message: "Service account 'no-such-bot' not found", errors: null });
      await a.http().get(sa(`/no-such-bot/api-keys`)).set(...admin()).expect(404);
      const missing = '00000000-0000-4000-8000-000000000000';
      await a.http().delete(sa(`/${account}/api-keys/${missing}`)).set(...admin()).expect(404, { message: 'API key not found', errors: null });
      await a.http().delete(sa(`/${account}/api-keys/not-a-uuid`)).set(...admin()).expect(404);
      await a.http().post(sa(`/${account}/api-keys/${missing}/rotate`)).set(...admin()).send({}).expect(404);

      const { id, key } = await newKey(account);
      const revoked = await a.http().delete(sa(`/${account}/api-keys/${id}`)).set(...admin()).set('Content-Type', 'application/json; charset=utf-8').send('null');
      expect(revoked.status).toBe(200);
      await whoAmI(a, key).expect(401);
      // another account's key id is not found through this account
      const other = await newAccount();
      const foreign = await newKey(other);
      await a.http().delete(sa(`/${account}/api-keys/${foreign.id}`)).set(...admin()).expect(404);
      await whoAmI(a, foreign.key).expect(200);
    });

    it('a key stops working the moment it expires', async () => {
      const account = await newAccount();
      const expiresAt = Math.floor(clockA.now() / 1000) + 3600;
      const { key, id } = await newKey(account, { description: 'short', expires_at: expiresAt });
      await whoAmI(a, key).expect(200);
      const listed = (await a.http().get(sa(`/${account}/api-keys/${id}`)).set(...admin()).expect(200)).body;
      expect(listed.expires_at).toBe(expiresAt);
      clockA.advance(3600 * 1000 + 1000);
      try {
        expect((await whoAmI(a, key)).status).toBe(401);
        // expired keys are not listed
        await a.http().get(sa(`/${account}/api-keys/${id}`)).set(...admin()).expect(404);
      } finally {
        clockA.advance(-(3600 * 1000 + 1000));
      }
    });

    it('revoked through one instance: the other refuses it within a second, although it had it cached', async () => {
      const account = await newAccount();
      const { id, key } = await newKey(account);
      await whoAmI(b, key).expect(200);
      // B caches verified keys: a change made behind the service's back (no notification) is not seen yet.
      await a.dataSource.query(`UPDATE api_keys SET revoked_at = now() WHERE id = $1`, [id]);
      await whoAmI(b, key).expect(200);
      await a.dataSource.query(`UPDATE api_keys SET revoked_at = NULL WHERE id = $1`, [id]);

      await a.http().delete(sa(`/${account}/api-keys/${id}`)).set(...admin()).expect(200);
      await whoAmI(a, key).expect(401); // the revoking instance itself: at once
      await seenByB(refusedBy(b, key), 'the revoked key refused by B');
      expect((await a.http().get(sa(`/${account}/api-keys`)).set(...admin()).expect(200)).body).toEqual([]);
    });

    it('a key id sent in upper case: the revoking (or rotating) instance refuses the old key at once, without waiting for the notification', async () => {
      // Hold back this instance's change notifications, so only the handler's own forget() can drop the cached key.
      const notifications: any = a.app.get(PgNotifications);
      const handlers = notifications.handlers.get(CREDENTIALS_CHANNEL);
      notifications.handlers.set(CREDENTIALS_CHANNEL, new Set());
      try {
        const account = await newAccount();
        const revoked = await newKey(account);
        await whoAmI(a, revoked.key).expect(200);
        await a.http().delete(sa(`/${account}/api-keys/${revoked.id.toUpperCase()}`)).set(...admin()).expect(200);
        await whoAmI(a, revoked.key).expect(401);

        const rotated = await newKey(account);
        await whoAmI(a, rotated.key).expect(200);
        await a.http().post(sa(`/${account}/api-keys/${rotated.id.toUpperCase()}/rotate`)).set(...admin()).send({ grace_period_hours: 0 }).expect(201);
        await whoAmI(a, rotated.key).expect(401);
      } finally {
        notifications.handlers.set(CREDENTIALS_CHANNEL, handlers);
      }
    });

    it('rotate: a new key at once, the old one keeps working for the grace period, then stops (in both instances)', async () => {
      const account = await newAccount();
      const old = await newKey(account, { description: 'deploy' });
      await whoAmI(b, old.key).expect(200);

      const rotated = await a.http().post(sa(`/${account}/api-keys/${old.id}/rotate`)).set(...admin()).send({ grace_period_hours: 2 }).expect(201);
      expect(rotated.body).toEqual({
        id: expect.any(String),
        key: expect.stringMatching(/^vtk_/),
        description: 'deploy',
        created_at: expect.any(Number),
        expires_at: 0,
        grace_period_expires_at: expect.any(Number),
      });
      expect(rotated.body.grace_period_expires_at).toBeCloseTo(clockA.now() / 1000 + 2 * 3600, 0);
      expect(rotated.body.id).not.toBe(old.id);
      for (const t of [a, b]) {
        await whoAmI(t, rotated.body.key).expect(200);
        await whoAmI(t, old.key).expect(200);
      }
      clockB.advance(2 * 3600 * 1000 + 1000);
      try {
        await seenByB(refusedBy(b, old.key), 'the change seen by B');
        await whoAmI(b, rotated.body.key).expect(200);
      } finally {
        clockB.advance(-(2 * 3600 * 1000 + 1000));
      }
      // both keys are listed while the old one is in its grace period
      expect((await a.http().get(sa(`/${account}/api-keys`)).set(...admin()).expect(200)).body.map((k: any) => k.id).sort()).toEqual(
        [old.id, rotated.body.id].sort(),
      );
    });

    it('rotate without a body keeps the old key for 24 hours', async () => {
      const account = await newAccount();
      const old = await newKey(account);
      const rotated = await a.http().post(sa(`/${account}/api-keys/${old.id}/rotate`)).set(...admin()).set('Content-Type', 'application/json').send('null').expect(201);
      expect(rotated.body.grace_period_expires_at).toBeCloseTo(clockA.now() / 1000 + 24 * 3600, 0);
      clockA.advance(24 * 3600 * 1000 - 1000);
      try {
        await whoAmI(a, old.key).expect(200);
        clockA.advance(2000);
        await whoAmI(a, old.key).expect(401);
        await whoAmI(a, rotated.body.key).expect(200);
      } finally {
        clockA.advance(-(24 * 3600 * 1000 + 1000));
      }
    });

    it('a new privilege applies to the account\'s keys in every instance at once', async () => {
      const account = await newAccount('reader');
      const { key } = await newKey(account);
      await createFlow(b, key).expect(403);
      await a.http().patch(sa(`/${account}`)).set(...admin()).send({ privilege: 'member' }).expect(200);
      await seenByB(async () => (await createFlow(b, key)).status === 201, 'the change seen by B');
      await a.http().patch(sa(`/${account}`)).set(...admin()).send({ privilege: 'reader' }).expect(200);
      await seenByB(async () => (await createFlow(b, key)).status === 403, 'the change seen by B');
    });

    it('deleting an account revokes its keys, in every instance', async () => {
      const account = await newAccount();
      const one = await newKey(account);
      const two = await newKey(account);
      for (const key of [one.key, two.key]) await whoAmI(b, key).expect(200);
      await a.http().delete(sa(`/${account}`)).set(...admin()).expect(200);
      for (const key of [one.key, two.key]) await whoAmI(a, key).expect(401);
      await seenByB(async () => (await refusedBy(b, one.key)()) && (await refusedBy(b, two.key)()), 'the change seen by B');
      expect(await a.dataSource.query(`SELECT 1 FROM api_keys WHERE id = ANY($1::uuid[])`, [[one.id, two.id]])).toEqual([]);
    });
  });

  describe('personal keys', () => {
    it('an admin manages their own keys: create, use, list, rotate, revoke', async () => {
      const p = `/api/v2/api-keys/${org.name}`;
      const created = await a.http().post(p).set(...admin()).send({ description: 'laptop' }).expect(201);
      expect((await whoAmI(b, created.body.key).expect(200)).body.role).toBe('admin');
      const listed = (await a.http().get(p).set(...admin()).expect(200)).body;
      expect(listed.map((k: any) => k.description)).toEqual(expect.arrayContaining(['laptop']));
      expect(JSON.stringify(listed)).not.toContain(created.body.key);
      await a.http().get(`${p}/${created.body.id}`).set(...admin()).expect(200);

      const rotated = await a.http().post(`${p}/${created.body.id}/rotate`).set(...admin()).send({ grace_period_hours: 0 }).expect(201);
      await whoAmI(a, created.body.key).expect(401);
      await seenByB(refusedBy(b, created.body.key), 'the change seen by B');
      await whoAmI(b, rotated.body.key).expect(200);

      await a.http().delete(`${p}/${rotated.body.id}`).set(...admin()).expect(200);
      await seenByB(refusedBy(b, rotated.body.key), 'the change seen by B');
    });

    it("another user's key is not found; a member may read but not write; a service account has no personal keys", async () => {
      const p = `/api/v2/api-keys/${org.name}`;
      const member = await addMember(a, org.name, 'member');
      const memberKeys = (await a.http().get(p).set(...bearer(member)).expect(200)).body;
      expect(memberKeys).toHaveLength(1);
      await a.http().delete(`${p}/${memberKeys[0].id}`).set(...admin()).expect(404);
      await whoAmI(a, member).expect(200);
      await a.http().post(p).set(...bearer(member)).send({ description: 'x' }).expect(403);

      const account = await newAccount('admin');
      const { key } = await newKey(account);
      const res = await a.http().post(p).set(...bearer(key)).send({ description: 'x' });
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/no personal API keys/);
    });
  });
});
