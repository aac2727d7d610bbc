import request from 'supertest';
import { BETA_FEATURES } from '../../src/common/auth/principal';
import { RENAMABLE_NAMES } from '../../src/common/http/rename-redirect';
import { openApiPath } from '../../src/common/openapi/openapi-document';
import { digest, envApi, pod } from '../support/env-helpers';
import { bearer, createOrg, TestOrg } from '../support/factories';
import { describeRoute, fillPath, listRoutes, queryFields, RouteEntry } from '../support/route-table';
import { startTestApp, TestApp } from '../support/test-app';
import { evidenceClient, fingerprint } from '../support/trail-helpers';

const HERE = 'test/lifecycle/rename-redirect-routes.e2e-spec.ts';
const FLOW_PARAMS: readonly string[] = RENAMABLE_NAMES.Flow.params;
const ENV_PARAMS: readonly string[] = RENAMABLE_NAMES.Environment.params;
const NAME_FIELDS: readonly string[] = [...RENAMABLE_NAMES.Flow.query, ...RENAMABLE_NAMES.Environment.query];

/**
 * Every GET route whose API description says it answers 308 (a flow or environment named by an old name) does
 * so, with `Location` the same request under the new name; and the description says it on every route that
 * has a path parameter or query field naming a flow or an environment.
 */
describe('old names of renamed flows and environments, route by route', () => {
  let t: TestApp;
  let org: TestOrg;
  let doc: any;
  let routes: RouteEntry[];
  const fp = fingerprint('e');
  const sha = 'c'.repeat(40);

  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t, { features: [...BETA_FEATURES] });
    routes = listRoutes(t.app);
    doc = (await request(t.baseUrl).get('/api/v2/openapi.json')).body;

    const c = evidenceClient(t, org);
    await c
      .reportArtifact('old-f', { fingerprint: fp, filename: 'app', trail_name: 't1', template_reference_name: 'app', git_commit_info: { sha1: sha } })
      .expect(201);
    await c.attest('old-f', 't1', { attestation_name: 'tests', is_compliant: true }).expect(201);
    const env = envApi(t, org);
    await env.create({ name: 'old-e', type: 'K8S' }).expect(201);
    await env.report('old-e', 'K8S', { artifacts: [pod('p1', { app: digest('w') })] }).expect(201);
    const as = bearer(org.adminKey);
    await t.http().put(`/api/v2/flows/${org.name}/old-f/rename`).set(...as).send({ new_name: 'new-f' }).expect(200);
    await t.http().put(`/api/v2/environments/${org.name}/old-e/rename`).set(...as).send({ new_name: 'new-e' }).expect(200);
    others.attestation_id = (await t.http().get(`/api/v2/attestations/${org.name}/new-f`).set(...as).expect(200)).body.data[0].attestation_id;
  });
  afterAll(() => t.close());

  const others: Record<string, string> = {
    trail: 't1',
    trail_name: 't1',
    fingerprint: fp,
    commit_sha: sha,
    attestation_name: 'tests',
    expression: '1',
    snapshot_expression: '1',
  };
  /** Required query fields that name nothing renamable. */
  const requiredQuery: Record<string, string> = { commit_list: sha };

  const documented308 = (route: RouteEntry) => Boolean(doc.paths[openApiPath(route.path)]?.[route.method.toLowerCase()]?.responses?.['308']);
  const namesSomething = (route: RouteEntry) =>
    route.params.some((p) => FLOW_PARAMS.includes(p) || ENV_PARAMS.includes(p)) || queryFields(route).some((f) => NAME_FIELDS.includes(f.name));

  it('is described on exactly the routes whose path or query names a flow or an environment', () => {
    const wrong = routes.filter((r) => documented308(r) !== namesSomething(r)).map(describeRoute);
    expect(wrong).toEqual([]);
    expect(routes.filter(documented308).length).toBeGreaterThan(30);
  });

  it('answers 308 to the current name on every such GET route', async () => {
    const failures: string[] = [];
    const checked: string[] = [];
    for (const route of routes.filter((r) => r.method === 'GET' && documented308(r))) {
      const fill = (renamed: boolean) => (p: string) =>
        p === 'org' ? org.name : FLOW_PARAMS.includes(p) ? (renamed ? 'new-f' : 'old-f') : ENV_PARAMS.includes(p) ? (renamed ? 'new-e' : 'old-e') : others[p];
      const path = fillPath(route, fill(false), HERE);
      const expected = fillPath(route, fill(true), HERE);
      const query = new URLSearchParams();
      for (const f of queryFields(route).filter((q) => q.required && !NAME_FIELDS.includes(q.name))) {
        if (!(f.name in requiredQuery)) throw new Error(`${describeRoute(route)}: no value for required query field '${f.name}'; add it in ${HERE}`);
        query.set(f.name, requiredQuery[f.name]);
      }
      // A route naming nothing in its path is asked with its first name field set to an old name.
      const inPath = route.params.some((p) => FLOW_PARAMS.includes(p) || ENV_PARAMS.includes(p));
      const field = inPath ? undefined : queryFields(route).find((f) => NAME_FIELDS.includes(f.name))!.name;
      const expectedQuery = new URLSearchParams(query);
      if (field) {
        const flow = (RENAMABLE_NAMES.Flow.query as readonly string[]).includes(field);
        query.set(field, flow ? 'old-f' : 'old-e');
        expectedQuery.set(field, flow ? 'new-f' : 'new-e');
      }
      const qs = (q: URLSearchParams) => (q.toString() ? `?${q.toString()}` : '');
      const res = await request(t.baseUrl).get(path + qs(query)).set(...bearer(org.adminKey)).redirects(0);
      checked.push(describeRoute(route));
      if (res.status !== 308) failures.push(`${describeRoute(route)}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      else if (res.headers.location !== expected + qs(expectedQuery)) failures.push(`${describeRoute(route)}: Location ${res.headers.location}`);
      else if (!/^(Flow|Environment) 'old-[fe]' was renamed to 'new-[fe]'$/.test(res.body.message)) failures.push(`${describeRoute(route)}: message ${res.body.message}`);
    }
    expect(failures).toEqual([]);
    expect(checked).toEqual(
      expect.arrayContaining([
        'GET /api/v2/trails/:org/:flow/:trail',
        'GET /api/v2/environments/:org/:env/events',
        'GET /api/v2/trails/:org',
        'GET /api/v2/artifacts/:org',
        'GET /api/v2/asserts/:org/fingerprint/:fingerprint',
      ]),
    );
  });

  it('answers an old environment_name (resolved after its 404) and keeps the rest of the query', async () => {
    const res = await t
      .http()
      .get(`/api/v2/asserts/${org.name}/fingerprint/${fp}?flow_name=new-f&environment_name=old-e`)
      .set(...bearer(org.adminKey))
      .redirects(0)
      .expect(308);
    expect(res.headers.location).toBe(`/api/v2/asserts/${org.name}/fingerprint/${fp}?flow_name=new-f&environment_name=new-e`);
    expect(res.body.message).toBe("Environment 'old-e' was renamed to 'new-e'");
    await t.http().get(`/api/v2/asserts/${org.name}/fingerprint/${fp}?environment_name=new-e`).set(...bearer(org.adminKey)).redirects(0).expect(200);
  });

  it('resolves nothing when the old name was taken again, or never was a name', async () => {
    const as = bearer(org.adminKey);
    await t.http().get(`/api/v2/trails/${org.name}`).query({ flow: 'never-was' }).set(...as).redirects(0).expect(200);
    const other = await createOrg(t);
    // Another organization's renames are not looked at.
    await t.http().get(`/api/v2/trails/${other.name}`).query({ flow: 'old-f' }).set(...bearer(other.adminKey)).redirects(0).expect(200);
    await t.http().get(`/api/v2/asserts/${other.name}/fingerprint/${fp}`).query({ environment_name: 'old-e' }).set(...bearer(other.adminKey)).redirects(0).expect(404);
    // A flow created with the old name takes it: the filter means that flow now.
    await evidenceClient(t, org).createFlow('old-f').expect(201);
    const trails = await t.http().get(`/api/v2/trails/${org.name}`).query({ flow: 'old-f' }).set(...as).redirects(0).expect(200);
    expect(trails.body.data ?? trails.body).toEqual([]);
  });
});
