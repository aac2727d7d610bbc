import { randomUUID } from 'node:crypto';
import { hashApiKey } from '../../src/modules/identity/domain/api-key-secret';
import { ApiKeyRepository } from '../../src/modules/identity/persistence/api-key.repository';
import { addMember, bearer, createOrg, TestOrg } from '../support/factories';
import { FakeClock } from '../support/fake-clock';
import { startTestApp, TestApp, uniqueName } from '../support/test-app';

/**
 * The API's authentication and authorization rules, checked in this order: 401 for every credential problem
 * (with WWW-Authenticate), 404 for an unknown org, 403 for a caller without a role or with too low a role.
 */
describe('authentication and roles', () => {
  let t: TestApp;
  let org: TestOrg;
  // The app's caches and key-expiry check read this clock: tests move it instead of waiting.
  const clock = new FakeClock();
  const readPath = () => `/api/v2/organizations/${org.name}`;
  const writePath = () => `/api/v2/flows/${org.name}`;
  const flowBody = () => ({ name: uniqueName('flow'), description: 'auth matrix' });

  beforeAll(async () => {
    t = await startTestApp({}, { clock });
    org = await createOrg(t);
  });
  afterAll(() => t.close());

  describe('401 for missing or bad credentials', () => {
    const cases: [string, Record<string, string>][] = [
      ['no Authorization header', {}],
      ['an unsupported scheme', { Authorization: 'Token abc' }],
      ['an empty bearer token', { Authorization: 'Bearer ' }],
      ['malformed Basic (not base64)', { Authorization: 'Basic %%%' }],
      ['malformed Basic (no colon)', { Authorization: `Basic ${Buffer.from('justakey').toString('base64')}` }],
      ['an unknown key', { Authorization: 'Bearer vtk_doesnotexist' }],
    ];
    it.each(cases)('%s', async (_, headers) => {
      const res = await t.http().get(readPath()).set(headers);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(res.body).toEqual({ message: expect.any(String), errors: null });
    });

    it('Basic is refused on a route that does not declare it, even with a valid key', async () => {
      const basic = Buffer.from(`${org.adminKey}:`).toString('base64');
      const res = await t.http().get(readPath()).set('Authorization', `Basic ${basic}`);
      expect(res.status).toBe(401);
    });

    it('an expired key', async () => {
      const key = await addMember(t, org.name, 'reader');
      await t.dataSource.query(`UPDATE api_keys SET expires_at = now() - interval '1 minute' WHERE key_hash = $1`, [
        hashApiKey(key),
      ]);
      const res = await t.http().get(readPath()).set(...bearer(key));
      expect(res.status).toBe(401);
      expect(res.body.message).toMatch(/expired/);
    });

    it('a revoked key', async () => {
      const key = await addMember(t, org.name, 'reader');
      await t.http().get(readPath()).set(...bearer(key)).expect(200);
      await t.dataSource.query(`UPDATE api_keys SET revoked_at = now() WHERE key_hash = $1`, [hashApiKey(key)]);
      // The verifier caches a verified key for 5 s: within that window the revocation is not seen yet ...
      clock.advance(5_000);
      await t.http().get(readPath()).set(...bearer(key)).expect(200);
      // ... and right after it, it is.
      clock.advance(1);
      const res = await t.http().get(readPath()).set(...bearer(key));
      expect(res.status).toBe(401);
      expect(res.body.message).toMatch(/revoked/);
    });

    it('a key stops working the moment it expires, even while it is cached', async () => {
      const key = await addMember(t, org.name, 'reader');
      const expiresAt = new Date(clock.now() + 60 * 60_000);
      await t.dataSource.query(`UPDATE api_keys SET expires_at = $2 WHERE key_hash = $1`, [hashApiKey(key), expiresAt]);
      await t.http().get(readPath()).set(...bearer(key)).expect(200);
      clock.advance(60 * 60_000 - 1);
      await t.http().get(readPath()).set(...bearer(key)).expect(200);
      clock.advance(1);
      await t.http().get(readPath()).set(...bearer(key)).expect(401);
    });
  });

  it('last_used_at is recorded when a key is used', async () => {
    const key = await addMember(t, org.name, 'reader');
    await t.http().get(readPath()).set(...bearer(key)).expect(200);
    // The write is not awaited by the request: read until it has landed (each read is one round trip, no sleep).
    const lastUsed = async () =>
      (await t.dataSource.query(`SELECT last_used_at FROM api_keys WHERE key_hash = $1`, [hashApiKey(key)]))[0].last_used_at;
    let value = await lastUsed();
    for (let i = 0; i < 500 && value === null; i++) value = await lastUsed();
    expect(value).not.toBeNull();
  });

  it('an unknown organization is 404 after authentication', async () => {
    const res = await t.http().get('/api/v2/organizations/no-such-org-xyz').set(...bearer(org.adminKey));
    expect(res.status).toBe(404);
    expect(res.body.message).toContain('no-such-org-xyz');
  });

  it('a personal key of another org gets 403', async () => {
    const other = await createOrg(t);
    const res = await t.http().get(readPath()).set(...bearer(other.adminKey));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "You don't have permission to access this resource", errors: null });
  });

  it('a service-account key of another org gets 403; of its own org it works with its role', async () => {
    const other = await createOrg(t);
    const keys = t.app.get(ApiKeyRepository);
    const issue = async (orgName: string, role: string) => {
      const [{ id: orgId }] = await t.dataSource.query(`SELECT id FROM organizations WHERE name = $1`, [orgName]);
      const saId = randomUUID();
      await t.dataSource.query(
        `INSERT INTO service_accounts (id, org_id, name, role) VALUES ($1, $2, $3, $4)`,
        [saId, orgId, uniqueName('ci'), role],
      );
      return (await keys.issue(t.dataSource.manager, { serviceAccountId: saId, orgId })).key;
    };
    const foreign = await issue(other.name, 'admin');
    await t.http().get(readPath()).set(...bearer(foreign)).expect(403);
    const own = await issue(org.name, 'reader');
    const res = await t.http().get(readPath()).set(...bearer(own)).expect(200);
    expect(res.body.role).toBe('reader');
    await t.http().put(writePath()).set(...bearer(own)).send(flowBody()).expect(403);
  });

  describe('roles against a read route and a write route', () => {
    const matrix: [string, number, number][] = [
      // role, read status, write (member-level) status
      ['reader', 200, 403],
      ['snapshotter', 200, 403],
      ['member', 200, 201],
      ['admin', 200, 201],
    ];
    it.each(matrix)('%s: read %i, write %i', async (role, read, write) => {
      const key = await addMember(t, org.name, role as any);
      const r = await t.http().get(readPath()).set(...bearer(key));
      expect(r.status).toBe(read);
      expect(r.body.role).toBe(role);
      const w = await t.http().put(writePath()).set(...bearer(key)).send(flowBody());
      expect(w.status).toBe(write);
      if (write === 403) expect(w.body.message).toBe("You don't have permission to access this resource");
    });
  });

  it('the operator routes refuse API keys and accept only the operator token', async () => {
    await t
      .http()
      .post('/api/v2/admin/organizations')
      .set(...bearer(org.adminKey))
      .send({ name: uniqueName('org'), admin: { email: 'x@example.com' } })
      .expect(401);
  });

  it('a 403 for a role is decided before the body is validated', async () => {
    const key = await addMember(t, org.name, 'reader');
    const res = await t.http().put(writePath()).set(...bearer(key)).send({ bogus: true });
    expect(res.status).toBe(403);
  });

  it('a beta route answers 403 naming the feature for an org without it, before validating the request', async () => {
    const moments = (o: string) => `/api/v2/trails/${o}/some-flow/some-trail/moments/not(a)valid@expression`;
    const res = await t.http().get(moments(org.name)).set(...bearer(org.adminKey));
    expect(res.status).toBe(403);
    expect(res.body.message).toContain('trail_moments');
    expect(res.body.message).toContain(org.name);
    const enabled = await createOrg(t, { features: ['trail_moments'] });
    const res2 = await t.http().get(moments(enabled.name)).set(...bearer(enabled.adminKey));
    expect([400, 404]).toContain(res2.status);
  });
});
