import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp, uniqueName } from '../support/test-app';

/** Error body shape, validation paths, content types and limits, as every route sees them. */
describe('HTTP conventions', () => {
  let t: TestApp;
  let org: TestOrg;
  const admin = (body: unknown) =>
    t.http().post('/api/v2/admin/organizations').set(...bearer(t.adminToken)).send(body as object);

  beforeAll(async () => {
    t = await startTestApp({ BODY_LIMIT_MB: '0.05' });
    org = await createOrg(t);
  });
  afterAll(() => t.close());

  describe('validation', () => {
    it('rejects unknown top-level and nested fields with their paths', async () => {
      const res = await admin({ name: uniqueName('o'), admin: { email: 'a@example.com', extra: 1 }, bogus: true });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Input payload validation failed');
      expect(Object.keys(res.body.errors).sort()).toEqual(['admin.extra', 'bogus']);
    });

    it('reports wrong types and missing fields per field', async () => {
      const res = await admin({ name: 42, region: 'mars', features: 'evaluations', admin: 'someone' });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({
        name: expect.stringContaining('string'),
        region: expect.stringContaining('eu, us'),
        features: expect.any(String),
        admin: expect.any(String),
      });
      const missing = await admin({});
      expect(missing.body.errors).toEqual({ name: 'is required', admin: 'is required' });
    });

    it('a body that is not an object is a 400, not a 500', async () => {
      const res = await admin([1, 2]);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ body: 'must be a JSON object' });
    });

    it('malformed JSON is a 400 with the error body', async () => {
      const res = await t
        .http()
        .post('/api/v2/admin/organizations')
        .set(...bearer(t.adminToken))
        .set('Content-Type', 'application/json')
        .send('{"name": ');
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/not valid JSON/);
    });
  });

  it('unknown routes answer 404 JSON', async () => {
    const res = await t.http().get('/api/v2/no/such/route').set(...bearer(org.adminKey));
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).toEqual({ message: expect.stringContaining('/api/v2/no/such/route'), errors: null });
  });

  it('a body in an unsupported content type is 415', async () => {
    const res = await t
      .http()
      .post('/api/v2/admin/organizations')
      .set(...bearer(t.adminToken))
      .set('Content-Type', 'text/plain')
      .send('name=x');
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ message: expect.stringContaining('text/plain'), errors: null });
  });

  it('a body over the limit is 413', async () => {
    const res = await admin({ name: 'x'.repeat(100_000), admin: { email: 'a@example.com' } });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: `The request body is larger than the limit of ${t.config.bodyLimitBytes} bytes`, errors: null });
  });

  it('GET with application/json; charset=utf-8 and no body, or with a JSON null body, is fine', async () => {
    await t
      .http()
      .get(`/api/v2/organizations/${org.name}`)
      .set(...bearer(org.adminKey))
      .set('Content-Type', 'application/json; charset=utf-8')
      .expect(200);
    await t
      .http()
      .get(`/api/v2/organizations/${org.name}`)
      .set(...bearer(org.adminKey))
      .set('Content-Type', 'application/json; charset=utf-8')
      .send('null')
      .expect(200);
  });

  it('every response carries a request id, and an incoming one is kept', async () => {
    const res = await t.http().get('/health').set('X-Request-Id', 'trace-123');
    expect(res.headers['x-request-id']).toBe('trace-123');
    const other = await t.http().get('/health');
    expect(other.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('probes are at the server root and need no credential', async () => {
    await t.http().get('/health').expect(200, { status: 'ok' });
    await t.http().get('/ready').expect(200, { status: 'ready', database: 'ok', storage: 'ok' });
    await t.http().get('/api/v2/ready').expect(404);
  });
});
