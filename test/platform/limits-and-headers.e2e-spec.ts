import { addMember, bearer, createOrg, TestOrg } from '../support/factories';
import { FakeClock } from '../support/fake-clock';
import { startTestApp, TestApp } from '../support/test-app';

const WINDOW_MS = 60_000;

/** Rate limits per API key and per address for requests without a valid key; time is moved, never waited for. */
describe('rate limits', () => {
  const clock = new FakeClock();
  let t: TestApp;
  let org: TestOrg;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '5', RATE_LIMIT_ANONYMOUS_REQUESTS: '2', RATE_LIMIT_WINDOW_SECONDS: '60' }, { clock });
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    // A fresh window for every key (the operator token's included: it creates the org).
    clock.advance(WINDOW_MS + 1_000);
    org = await createOrg(t);
  });

  const readOrg = (key: string) => t.http().get(`/api/v2/organizations/${org.name}`).set(...bearer(key));

  it('answers 429 with Retry-After and the error body past the limit of one API key, other keys unaffected, until the window ends', async () => {
    const other = await addMember(t, org.name, 'reader');
    for (let i = 0; i < 5; i++) expect((await readOrg(org.adminKey)).status).toBe(200);

    const refused = await readOrg(org.adminKey).set('X-Request-Id', 'ci-run-7.limit');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    expect(refused.headers['x-request-id']).toBe('ci-run-7.limit');
    expect(refused.body).toEqual({ message: 'Too many requests: at most 5 per 60 s per API key; retry later', errors: null });

    // Another key (another member of the same org) has its own count.
    expect((await readOrg(other)).status).toBe(200);

    clock.advance(30_000);
    const later = await readOrg(org.adminKey);
    expect(later.status).toBe(429);
    expect(later.headers['retry-after']).toBe('30');

    clock.advance(30_000);
    expect((await readOrg(org.adminKey)).status).toBe(200);
  });

  it('counts writes and reads alike: a refused write stores nothing', async () => {
    for (let i = 0; i < 5; i++) expect((await readOrg(org.adminKey)).status).toBe(200);
    const write = await t
      .http()
      .put(`/api/v2/flows/${org.name}`)
      .set(...bearer(org.adminKey))
      .send({ name: 'limited-flow', description: '' });
    expect(write.status).toBe(429);
    clock.advance(WINDOW_MS);
    expect((await t.http().get(`/api/v2/flows/${org.name}`).set(...bearer(org.adminKey))).body).toEqual([]);
  });

  it('limits requests without a valid key per client address (429 instead of 401), never valid keys or the probes', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await readOrg('vtk_not-a-real-key');
      expect(res.status).toBe(401);
    }
    const refused = await t.http().get(`/api/v2/organizations/${org.name}`);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.body).toEqual({ message: 'Too many requests: at most 2 per 60 s per client address without a valid API key; retry later', errors: null });

    // The same address with a valid key, and the probes, are not held back.
    expect((await readOrg(org.adminKey)).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await t.http().get('/health')).status).toBe(200);
  });

  it('counts failed web sign-ins in the same limit: a route that checks the key itself gets no way around it', async () => {
    const signIn = (key: string) =>
      t.http().post('/api/v2/session').set('Cookie', 'vt_csrf=probe-token').set('x-csrf-token', 'probe-token').send({ api_key: key });
    for (let i = 0; i < 2; i++) expect((await signIn('vtk_not-a-real-key')).status).toBe(401);
    const refused = await signIn('vtk_not-a-real-key');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: 'Too many requests: at most 2 per 60 s per client address without a valid API key; retry later', errors: null });
    // And the guard's count is the same one: a bad bearer key is refused at once.
    expect((await readOrg('vtk_not-a-real-key')).status).toBe(429);
    expect((await signIn(org.adminKey)).status).toBe(200);
  });
});

describe('security headers', () => {
  let t: TestApp;
  let org: TestOrg;

  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  function expectSecurityHeaders(headers: Record<string, string>) {
    expect(headers['content-security-policy']).toContain("default-src 'none'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(headers['x-powered-by']).toBeUndefined();
  }

  it('sends them on JSON answers, errors and probes, keeping JSON bodies and the request id', async () => {
    const ok = await t.http().get(`/api/v2/organizations/${org.name}`).set(...bearer(org.adminKey)).set('X-Request-Id', 'cli-42');
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^application\/json/);
    expect(ok.headers['x-request-id']).toBe('cli-42');
    expect(ok.body.name).toBe(org.name);
    expectSecurityHeaders(ok.headers);

    const unauthorized = await t.http().get(`/api/v2/organizations/${org.name}`);
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.body).toEqual({ message: expect.any(String), errors: null });
    expectSecurityHeaders(unauthorized.headers);

    const notFound = await t.http().get('/api/v2/no-such-route').set(...bearer(org.adminKey));
    expect(notFound.status).toBe(404);
    expectSecurityHeaders(notFound.headers);

    const probe = await t.http().get('/health');
    expect(probe.body).toEqual({ status: 'ok' });
    expectSecurityHeaders(probe.headers);
  });
});
