import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startDbProcess, DbProcess } from '../support/embedded-db-process';
import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/** Stop the database under a running app: 503 + Retry-After; start it again: the app recovers by itself. */
describe('database outage', () => {
  let dir: string;
  let db: DbProcess;
  let t: TestApp;
  let org: TestOrg;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-fault-'));
    db = await startDbProcess(dir);
    t = await startTestApp({}, db.url);
    org = await createOrg(t, { features: ['evaluations'] });
  });
  afterAll(async () => {
    await t?.close();
    await db?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 while the database is down and recovers without a restart', async () => {
    const read = () => t.http().get(`/api/v2/organizations/${org.name}`).set(...bearer(org.adminKey));
    await read().expect(200);

    await db.stop();
    // A new key forces a database lookup (the verified key above may be cached).
    const down = await t
      .http()
      .post('/api/v2/admin/organizations/' + org.name + '/members')
      .set(...bearer(t.adminToken))
      .send({ email: 'during-outage@example.com', role: 'reader' });
    expect(down.status).toBe(503);
    expect(down.headers['retry-after']).toMatch(/^\d+$/);
    expect(down.body).toEqual({ message: 'Database temporarily unavailable, please retry', errors: null });
    const ready = await t.http().get('/ready');
    expect(ready.status).toBe(503);
    // create evaluation too (its key and org are cached from the read above, so the request reaches the handler)
    const evaluation = await t
      .http()
      .post(`/api/v2/evaluations/${org.name}`)
      .set(...bearer(org.adminKey))
      .send({ context: { trails: [{ flow: 'f', trail: 't' }] }, policy: { files: { 'p.rego': 'package policy' } } });
    expect([evaluation.status, evaluation.body.message]).toEqual([503, 'Database temporarily unavailable, please retry']);
    expect(evaluation.headers['retry-after']).toMatch(/^\d+$/);

    db = await startDbProcess(dir, db.port);
    await waitFor(async () => (await t.http().get('/ready')).status === 200, { timeoutMs: 10_000, intervalMs: 200, what: '/ready 200 again' });
    await read().expect(200);
    const added = await t
      .http()
      .post('/api/v2/admin/organizations/' + org.name + '/members')
      .set(...bearer(t.adminToken))
      .send({ email: 'after-outage@example.com', role: 'reader' });
    expect(added.status).toBe(201);
  });
});
