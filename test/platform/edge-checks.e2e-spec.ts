import { BETA_FEATURES } from '../../src/common/auth/principal';
import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * What a client hears for each class of input the database cannot take, checked at the edge: the status, and
 * the key of the field or parameter at fault. (The property suite, malformed-requests.e2e-spec.ts, sends many
 * more and asserts only "a 4xx with the error body, nothing stored".)
 */
describe('edge checks: NUL characters, numbers out of range, hostile YAML', () => {
  let t: TestApp;
  let org: TestOrg;
  const flow = 'edge-flow';
  const trail = 'edge-trail';
  const as = (req: ReturnType<ReturnType<TestApp['http']>['get']>) => req.set(...bearer(org.adminKey));

  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t, { features: [...BETA_FEATURES] });
    await as(t.http().put(`/api/v2/flows/${org.name}`)).send({ name: flow, visibility: 'private' }).expect(201);
    await as(t.http().put(`/api/v2/trails/${org.name}/${flow}`)).field('data_json', JSON.stringify({ name: trail })).expect(201);
    await as(t.http().put(`/api/v2/environments/${org.name}`)).send({ name: 'edge-env', type: 'K8S' }).expect(201);
  });

  afterAll(async () => {
    await t?.close();
  });

  const attestationCount = async () =>
    (await as(t.http().get(`/api/v2/attestations/${org.name}/${flow}`)).expect(200)).body.pagination.total as number;

  describe('NUL characters', () => {
    it('in a JSON string of data_json: 400 naming the field, nothing stored', async () => {
      const before = await attestationCount();
      const res = await as(t.http().post(`/api/v2/attestations/${org.name}/${flow}/trail/${trail}/generic`))
        .field('data_json', JSON.stringify({ attestation_name: 'nul', is_compliant: true, user_data: { note: 'a\u0000b' } }))
        .expect(400);
      expect(res.body.errors).toEqual({ 'user_data.note': expect.stringMatching(/NUL/) });
      expect(await attestationCount()).toBe(before);
    });

    it('in an attachment file name: 400 naming the part, nothing stored', async () => {
      const before = await attestationCount();
      const body = [
        '--B',
        'Content-Disposition: form-data; name="data_json"',
        '',
        JSON.stringify({ attestation_name: 'nul-file', is_compliant: true }),
        '--B',
        'Content-Disposition: form-data; name="attachment_file"; filename="a\u0000.txt"',
        'Content-Type: text/plain',
        '',
        'evidence',
        '--B--',
        '',
      ].join('\r\n');
      const res = await as(t.http().post(`/api/v2/attestations/${org.name}/${flow}/trail/${trail}/generic`))
        .set('Content-Type', 'multipart/form-data; boundary=B')
        .send(Buffer.from(body))
        .expect(400);
      expect(res.body.errors).toEqual({ attachment_file: expect.stringMatching(/file name must not contain NUL/) });
      expect(await attestationCount()).toBe(before);
    });

    it('in a JSON body, a key, or an unpaired surrogate: 400 naming each', async () => {
      const res = await as(t.http().put(`/api/v2/flows/${org.name}`))
        .set('Content-Type', 'application/json')
        .send('{"name":"x","description":"d\\u0000","\\u0000k":1,"visibility":"\\ud800"}')
        .expect(400);
      expect(Object.keys(res.body.errors).sort()).toEqual(['\\u0000k', 'description', 'visibility']);
    });

    it('in a query string: 400 naming the parameter', async () => {
      const res = await as(t.http().get(`/api/v2/repos/${org.name}?search=a%00b`)).expect(400);
      expect(res.body.errors).toEqual({ 'query.search': expect.stringMatching(/NUL/) });
    });

    it('in a path segment (an org, flow or trail name): 404, the path names nothing', async () => {
      for (const path of [`/api/v2/flows/a%00b`, `/api/v2/trails/${org.name}/${flow}/tr%00il`, `/api/v2/attestations/${org.name}/%00`]) {
        const res = await as(t.http().get(path)).expect(404);
        expect(res.body).toEqual({ message: expect.stringMatching(/NUL/), errors: null });
      }
    });
  });

  it('a JSON document nested past 64 levels: 400 where the limit is crossed (deep nesting overflowed validation)', async () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const res = await as(t.http().put(`/api/v2/actions/${org.name}/flows`))
      .set('Content-Type', 'application/json')
      .send(`{"name":"deep","flows":["${flow}"],"triggers":["ON_ATTESTATION"],"targets":[${deep}]}`)
      .expect(400);
    expect(res.body.errors).toEqual({ [`targets${'[0]'.repeat(63)}`]: 'must not nest more than 64 levels deep' });
  });

  describe('numbers out of range: 400 with the parameter key', () => {
    it.each([
      ['page=99999999999999999999', 'query.page'],
      ['page=0', 'query.page'],
      ['from_timestamp=99999999999999', 'query.from_timestamp'],
      ['to_timestamp=-99999999999999', 'query.to_timestamp'],
      ['from_timestamp=1e400', 'query.from_timestamp'],
    ])('%s', async (query, key) => {
      const res = await as(t.http().get(`/api/v2/attestations/${org.name}/${flow}?${query}`)).expect(400);
      expect(Object.keys(res.body.errors)).toEqual([key]);
    });

    it('a page far past the end of a paged list is an empty page', async () => {
      const res = await as(t.http().get(`/api/v2/flows/${org.name}?page=2147483647`)).expect(200);
      expect(res.body.data).toEqual([]);
      await as(t.http().get(`/api/v2/flows/${org.name}?page=2147483648`)).expect(400);
    });

    it.each(['@{999999999.days.ago}', '@{12001.months.ago}', '@{999999999999}', '@{0001-01-01T00:00:00Z}'])('moment %s', async (expr) => {
      const res = await as(t.http().get(`/api/v2/trails/${org.name}/${flow}/${trail}/moments/${encodeURIComponent(expr)}`)).expect(400);
      expect(Object.keys(res.body.errors)).toEqual(['moment_expression']);
      const snapshot = await as(t.http().get(`/api/v2/snapshots/${org.name}/edge-env/${encodeURIComponent(expr)}`)).expect(400);
      expect(Object.keys(snapshot.body.errors)).toEqual(['snapshot_expression']);
    });

    it('counts beyond the largest moment number name nothing (404)', async () => {
      for (const expr of ['~99999999999999999', '-99999999999999999']) {
        await as(t.http().get(`/api/v2/trails/${org.name}/${flow}/${trail}/moments/${encodeURIComponent(expr)}`)).expect(404);
      }
    });
  });

  describe('YAML templates: 400 on template_file', () => {
    const bomb = ['version: 1', 'a: &a [x, x, x, x, x, x, x, x, x]', 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]', 'trail: *b'].join('\n');
    it.each([
      ['an unresolved alias', 'version: 1\ntrail:\n  attestations: *nowhere\n', /aliases/],
      ['an alias', 'version: 1\ntrail: &t {attestations: []}\nx: *t\n', /aliases/],
      ['an anchor bomb', bomb, /aliases/],
      ['deep nesting', 'version: 1\ntrail: ' + '['.repeat(40) + ']'.repeat(40) + '\n', /levels deep/],
      ['an unknown tag', 'version: 1\ntrail: !!js/function "f"\n', /tag/],
    ])('%s', async (_, template, message) => {
      const res = await as(t.http().put(`/api/v2/flows/${org.name}/template_file`))
        .field('data_json', JSON.stringify({ name: 'edge-yaml' }))
        .attach('template_file', Buffer.from(template), 'template.yml')
        .expect(400);
      expect(res.body.errors).toEqual({ template_file: expect.stringMatching(message) });
      await as(t.http().get(`/api/v2/flows/${org.name}/edge-yaml`)).expect(404);
    });
  });
});
