import { randomUUID } from 'node:crypto';
import { addMember, bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp, uniqueName } from '../support/test-app';
import { postGeneric } from '../support/attestation-helpers';

describe('listing attestations (spec op 9, org-wide find, slot versions)', () => {
  let t: TestApp;
  let org: TestOrg;
  /** A flow with 45 attestations (a1 .. a45, a45 newest) over two trails. */
  let flow: string;

  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t);
    flow = uniqueName('flow');
    for (let i = 1; i <= 45; i++) {
      await postGeneric(t, org.adminKey, org.name, flow, i % 2 ? 'odd' : 'even', { attestation_name: `a${i}`, is_compliant: i % 3 !== 0 }).expect(201);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (path: string, key = org.adminKey) => t.http().get(path).set(...bearer(key));
  const names = (body: any) => body.data.map((a: any) => a.attestation_name);
  const base = () => `${t.config.publicBaseUrl}/api/v2/attestations/${org.name}/${flow}`;

  it('lists newest first with the default page size and links', async () => {
    const res = await get(`/api/v2/attestations/${org.name}/${flow}`);
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ total: 45, page: 1, per_page: 20, page_count: 3 });
    expect(names(res.body)).toEqual(Array.from({ length: 20 }, (_, i) => `a${45 - i}`));
    expect(res.body._links).toEqual({
      self: `${base()}?page=1&per_page=20`,
      first: `${base()}?page=1&per_page=20`,
      last: `${base()}?page=3&per_page=20`,
      next: `${base()}?page=2&per_page=20`,
      prev: null,
    });
    const attestationNumbers = res.body.data.map((a: any) => a.attestation_number);
    expect(attestationNumbers).toEqual(Array.from({ length: 20 }, (_, i) => 45 - i));
  });

  it('serves the last, partial page and an empty page past the end', async () => {
    const last = await get(`/api/v2/attestations/${org.name}/${flow}?page=3`);
    expect(names(last.body)).toEqual(['a5', 'a4', 'a3', 'a2', 'a1']);
    expect(last.body._links.next).toBeNull();
    expect(last.body._links.prev).toBe(`${base()}?page=2&per_page=20`);

    const past = await get(`/api/v2/attestations/${org.name}/${flow}?page=7`);
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual([]);
    expect(past.body.pagination).toEqual({ total: 45, page: 7, per_page: 20, page_count: 3 });
    expect(past.body._links.next).toBeNull();
    expect(past.body._links.prev).toBe(`${base()}?page=3&per_page=20`);
  });

  it('handles exact multiples of per_page', async () => {
    const p = await get(`/api/v2/attestations/${org.name}/${flow}?per_page=15&page=3`);
    expect(p.body.pagination).toEqual({ total: 45, page: 3, per_page: 15, page_count: 3 });
    expect(names(p.body)).toEqual(Array.from({ length: 15 }, (_, i) => `a${15 - i}`));
    expect(p.body._links.next).toBeNull();
    const past = await get(`/api/v2/attestations/${org.name}/${flow}?per_page=15&page=4`);
    expect(past.body.data).toEqual([]);
    const all = await get(`/api/v2/attestations/${org.name}/${flow}?per_page=45`);
    expect(all.body.pagination.page_count).toBe(1);
    expect(all.body.data).toHaveLength(45);
    const max = await get(`/api/v2/attestations/${org.name}/${flow}?per_page=100`);
    expect(max.status).toBe(200);
    expect(max.body.data).toHaveLength(45);
  });

  it('lists an empty flow', async () => {
    const empty = uniqueName('empty');
    await t.dataSource.query(
      `INSERT INTO flows (id, org_id, name) SELECT $1, id, $2 FROM organizations WHERE name = $3`,
      [randomUUID(), empty, org.name],
    );
    const res = await get(`/api/v2/attestations/${org.name}/${empty}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.pagination).toEqual({ total: 0, page: 1, per_page: 20, page_count: 0 });
    expect(res.body._links.next).toBeNull();
    expect(res.body._links.prev).toBeNull();
    expect(res.body._links.last).toContain('page=1');
  });

  it('filters by a time span, inclusive at both ends', async () => {
    const all = (await get(`/api/v2/attestations/${org.name}/${flow}?per_page=100`)).body.data;
    const byName = (n: string) => all.find((a: any) => a.attestation_name === n);
    const from = byName('a10').created_at;
    const to = byName('a14').created_at;
    const res = await get(`/api/v2/attestations/${org.name}/${flow}?from_timestamp=${from}&to_timestamp=${to}&per_page=2`);
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ total: 5, page: 1, per_page: 2, page_count: 3 });
    expect(names(res.body)).toEqual(['a14', 'a13']);
    const page3 = await get(`/api/v2/attestations/${org.name}/${flow}?from_timestamp=${from}&to_timestamp=${to}&per_page=2&page=3`);
    expect(names(page3.body)).toEqual(['a10']);
    expect(page3.body._links.self).toBe(`${base()}?from_timestamp=${from}&to_timestamp=${to}&page=3&per_page=2`);

    const one = await get(`/api/v2/attestations/${org.name}/${flow}?from_timestamp=${from}&to_timestamp=${from}`);
    expect(names(one.body)).toEqual(['a10']);
    const onlyFrom = await get(`/api/v2/attestations/${org.name}/${flow}?from_timestamp=${byName('a43').created_at}`);
    expect(names(onlyFrom.body)).toEqual(['a45', 'a44', 'a43']);
    const onlyTo = await get(`/api/v2/attestations/${org.name}/${flow}?to_timestamp=${byName('a2').created_at}`);
    expect(names(onlyTo.body)).toEqual(['a2', 'a1']);
    const future = await get(`/api/v2/attestations/${org.name}/${flow}?from_timestamp=${Math.ceil(Date.now() / 1000) + 3600}`);
    expect(future.body.data).toEqual([]);
    expect(future.body.pagination.total).toBe(0);
    const past = await get(`/api/v2/attestations/${org.name}/${flow}?to_timestamp=1000`);
    expect(past.body.pagination.total).toBe(0);
  });

  it('filters by attestation_id', async () => {
    const target = (await get(`/api/v2/attestations/${org.name}/${flow}?page=2&per_page=5`)).body.data[2];
    const res = await get(`/api/v2/attestations/${org.name}/${flow}?attestation_id=${target.attestation_id}`);
    expect(res.body.data).toEqual([target]);
    expect(res.body.pagination).toEqual({ total: 1, page: 1, per_page: 20, page_count: 1 });
    const none = await get(`/api/v2/attestations/${org.name}/${flow}?attestation_id=${randomUUID()}`);
    expect(none.body.data).toEqual([]);
    const notUuid = await get(`/api/v2/attestations/${org.name}/${flow}?attestation_id=1234`);
    expect(notUuid.status).toBe(200);
    expect(notUuid.body.data).toEqual([]);
  });

  it('validates the query with query.* keys', async () => {
    const cases: Array<[string, string]> = [
      ['per_page=101', 'query.per_page'],
      ['per_page=0', 'query.per_page'],
      ['per_page=ten', 'query.per_page'],
      ['page=0', 'query.page'],
      ['page=1.5', 'query.page'],
      ['from_timestamp=yesterday', 'query.from_timestamp'],
      ['from_timestamp=2000&to_timestamp=1000', 'query.from_timestamp'],
      ['sort=asc', 'query.sort'],
    ];
    for (const [query, key] of cases) {
      const res = await get(`/api/v2/attestations/${org.name}/${flow}?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Input payload validation failed');
      expect(Object.keys(res.body.errors)).toEqual([key]);
    }
    const res = await get(`/api/v2/attestations/${org.name}/${flow}?per_page=101`);
    expect(res.body.errors).toEqual({ 'query.per_page': 'must not be greater than 100' });
  });

  it('answers 401 without a credential and 404 for an unknown org, on every read route', async () => {
    const id = (await get(`/api/v2/attestations/${org.name}/${flow}?per_page=1`)).body.data[0].attestation_id;
    const paths = (o: string) => [
      `/api/v2/attestations/${o}/${flow}`,
      `/api/v2/attestations/${o}?attestation_id=${id}`,
      `/api/v2/attestations/${o}/${flow}/trail/odd/a1`,
      `/api/v2/attestations/${o}/${flow}/trail/odd/attestation/${id}/evidence`,
    ];
    for (const path of paths(org.name)) {
      const res = await t.http().get(path);
      expect([path, res.status]).toEqual([path, 401]);
      expect(res.headers['www-authenticate']).toBeDefined();
      expect(res.body.message).toEqual(expect.any(String));
    }
    const missing = uniqueName('no-org');
    for (const path of paths(missing)) {
      const res = await get(path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.body).toEqual({ message: `Organization '${missing}' not found`, errors: null });
    }
  });

  it('answers 404 for an unknown flow, 403 for a non-member, and lets readers list', async () => {
    const missing = await get(`/api/v2/attestations/${org.name}/no-such-flow`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: "Flow 'no-such-flow' not found", errors: null });
    const other = await createOrg(t);
    const stranger = await get(`/api/v2/attestations/${org.name}/${flow}`, other.adminKey);
    expect(stranger.status).toBe(403);
    const reader = await addMember(t, org.name, 'reader');
    expect((await get(`/api/v2/attestations/${org.name}/${flow}`, reader)).status).toBe(200);
  });

  it('finds one attestation org-wide by attestation_id', async () => {
    const target = (await get(`/api/v2/attestations/${org.name}/${flow}?per_page=1`)).body.data[0];
    const res = await get(`/api/v2/attestations/${org.name}?attestation_id=${target.attestation_id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([target]);
    expect(res.body.pagination.total).toBe(1);
    // not visible from another org
    const other = await createOrg(t);
    const elsewhere = await get(`/api/v2/attestations/${other.name}?attestation_id=${target.attestation_id}`, other.adminKey);
    expect(elsewhere.body.data).toEqual([]);
    // without attestation_id it is the org's listing (test/attestations/typed/reading-attestations.e2e-spec.ts)
    const listing = await get(`/api/v2/attestations/${org.name}?per_page=1`);
    expect(listing.status).toBe(200);
    expect(listing.body.data).toHaveLength(1);
  });

  it('lists the versions of one slot, newest first', async () => {
    const f = uniqueName('flow');
    await postGeneric(t, org.adminKey, org.name, f, 't', { attestation_name: 'scan', is_compliant: false }).expect(201);
    await postGeneric(t, org.adminKey, org.name, f, 't', { attestation_name: 'other', is_compliant: true }).expect(201);
    await postGeneric(t, org.adminKey, org.name, f, 't', { attestation_name: 'scan', is_compliant: true }).expect(201);
    const res = await get(`/api/v2/attestations/${org.name}/${f}/trail/t/scan`);
    expect(res.status).toBe(200);
    expect(res.body.map((a: any) => [a.attestation_name, a.is_compliant])).toEqual([
      ['scan', true],
      ['scan', false],
    ]);
    const none = await get(`/api/v2/attestations/${org.name}/${f}/trail/t/nothing`);
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ message: `Attestation 'nothing' not found in trail 't' of flow '${f}'`, errors: null });
    const noTrail = await get(`/api/v2/attestations/${org.name}/${f}/trail/nope/scan`);
    expect(noTrail.status).toBe(404);
    expect(noTrail.body.message).toBe(`Trail 'nope' not found in flow '${f}'`);
    const noFlow = await get(`/api/v2/attestations/${org.name}/nope/trail/t/scan`);
    expect(noFlow.body.message).toBe(`Flow 'nope' not found`);
  });

  it('answers 404 for evidence that does not exist', async () => {
    const f = uniqueName('flow');
    await postGeneric(t, org.adminKey, org.name, f, 't', { attestation_name: 'plain', is_compliant: true }).expect(201);
    const id = (await get(`/api/v2/attestations/${org.name}/${f}`)).body.data[0].attestation_id;
    const none = await get(`/api/v2/attestations/${org.name}/${f}/trail/t/attestation/${id}/evidence`);
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ message: 'This attestation has no evidence file attached.', errors: null });
    const unknown = await get(`/api/v2/attestations/${org.name}/${f}/trail/t/attestation/${randomUUID()}/evidence`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/^Attestation '.*' not found in trail 't'/);
    const wrongTrail = await get(`/api/v2/attestations/${org.name}/${f}/trail/other/attestation/${id}/evidence`);
    expect(wrongTrail.status).toBe(404);
  });
});
