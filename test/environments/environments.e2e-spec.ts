import { addMember, bearer, createOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { digest, envApi, pod } from '../support/env-helpers';

describe('environments: create, read, list', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('PUT /environments/{org} creates (201) then updates (200) only the fields sent; GET shows every field the CLI reads', async () => {
    const org = await createOrg(t);
    const api = envApi(t, org);
    const created = await api.create({ name: 'prod', type: 'K8S', description: 'production' });
    expect(created.status).toBe(201);
    expect(created.body).toBe("Environment 'prod' created");
    expect(created.headers['content-type']).toMatch(/^application\/json/);
    const fresh = (await api.get('prod').expect(200)).body;
    expect(fresh).toEqual({
      org: org.name,
      name: 'prod',
      type: 'K8S',
      description: 'production',
      include_scaling: false,
      require_provenance: false,
      state: null,
      last_reported_at: null,
      last_modified_at: expect.any(Number),
      last_changed_at: null,
      last_snapshot: 0,
      tags: {},
      policies: [],
      included_environments: [],
      created_by: org.adminEmail,
      created_at: expect.any(Number),
      html_url: expect.stringMatching(new RegExp(`/${org.name}/environments/prod$`)),
      archived: false,
      archived_at: null,
      history: [],
    });

    const updated = await api.create({ name: 'prod', type: 'K8S', description: 'still prod', include_scaling: true });
    expect(updated.status).toBe(200);
    expect(updated.body).toBe("Environment 'prod' updated");
    // What `kosli create environment` sends when flags are absent: nulls and omissions keep what is stored.
    await api.create({ name: 'prod', type: 'K8S', description: null, include_scaling: null, require_provenance: true }).expect(200);
    expect((await api.get('prod').expect(200)).body).toMatchObject({ description: 'still prod', include_scaling: true, require_provenance: true });
  });

  it('accepts every field the CLI sends, and creates every type', async () => {
    const org = await createOrg(t);
    const api = envApi(t, org);
    for (const type of ['S3', 'K8S', 'ECS', 'docker', 'server', 'lambda', 'logical']) {
      await api.create({ name: `e-${type}`, type, description: '', include_scaling: false, require_provenance: false, included_environments: [], policies: [] }).expect(201);
      expect((await api.get(`e-${type}`).expect(200)).body.type).toBe(type);
    }
  });

  it('400: unknown type, a changed type, bad name, unknown field, policies, included environments on a physical one', async () => {
    const org = await createOrg(t);
    const api = envApi(t, org);
    await api.create({ name: 'prod', type: 'K8S', description: '' }).expect(201);
    const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [{ name: 'x', type: 'openshift', description: '' }, { type: 'must be one of ECS, K8S, S3, azure-apps, docker, lambda, server, logical' }],
      [{ name: 'x', type: 'k8s', description: '' }, { type: expect.stringContaining('must be one of') }],
      [{ name: 'prod', type: 'ECS', description: '' }, { type: "environment 'prod' exists with type K8S; the type of an environment cannot change" }],
      [{ name: '-bad', type: 'K8S' }, { name: expect.stringContaining('must match') }],
      [{ name: 'x', type: 'K8S', colour: 'red' }, { colour: expect.stringContaining('unknown field') }],
      [{ name: 'x', type: 'K8S', policies: ['p1'] }, { policies: 'environment policies are not supported yet' }],
      [{ name: 'x', type: 'K8S', included_environments: ['prod'] }, { included_environments: 'only a logical environment includes other environments' }],
      [{ name: 'x', type: 'K8S', include_scaling: 'yes' }, { include_scaling: expect.any(String) }],
      [{ type: 'K8S' }, { name: 'is required' }],
    ];
    for (const [body, errors] of cases) {
      const res = await api.create(body).expect(400);
      expect({ body, errors: res.body.errors }).toEqual({ body, errors });
    }
    expect((await api.list().expect(200)).body.map((e: any) => e.name)).toEqual(['prod']);
    expect((await api.get('prod').expect(200)).body.type).toBe('K8S');
  });

  it('404 for an unknown environment; roles: a reader reads, only a member creates', async () => {
    const org = await createOrg(t);
    const api = envApi(t, org);
    expect((await api.get('nope').expect(404)).body).toEqual({ message: "Environment 'nope' not found", errors: null });
    await api.create({ name: 'prod', type: 'S3', description: '' }).expect(201);
    const reader = envApi(t, org, await addMember(t, org.name, 'reader'));
    const snapshotter = envApi(t, org, await addMember(t, org.name, 'snapshotter'));
    await reader.get('prod').expect(200);
    await reader.create({ name: 'r', type: 'S3', description: '' }).expect(403);
    await snapshotter.create({ name: 's', type: 'S3', description: '' }).expect(403);
    await envApi(t, org, await addMember(t, org.name, 'member')).create({ name: 'm', type: 'S3', description: '' }).expect(201);
  });

  it('GET /environments/{org}: a plain array; with page or per_page the paged object; filters and sorting', async () => {
    const org = await createOrg(t);
    const api = envApi(t, org);
    for (const [name, type] of [['prod-k8s', 'K8S'], ['prod-ecs', 'ECS'], ['staging', 'K8S'], ['bucket', 'S3'], ['all-prod', 'logical']]) {
      await api.create({ name, type, description: '' }).expect(201);
    }
    await t.http().patch(`/api/v2/tags/${org.name}/env/staging`).set(...bearer(org.adminKey)).send({ set_tags: { tier: 'test', team: 'web' } }).expect(200);
    await t.http().patch(`/api/v2/tags/${org.name}/env/prod-k8s`).set(...bearer(org.adminKey)).send({ set_tags: { tier: 'prod' } }).expect(200);
    await api.report('staging', 'K8S', { artifacts: [pod('p', { web: digest('w') })] }).expect(201);

    const plain = await api.list().expect(200);
    expect(plain.body.map((e: any) => e.name)).toEqual(['all-prod', 'bucket', 'prod-ecs', 'prod-k8s', 'staging']);
    for (const e of plain.body) {
      expect(e.tags).toEqual(expect.any(Object));
      expect(e.policies).toEqual([]);
    }

    const paged = await api.list({ page: 2, per_page: 2 }).expect(200);
    expect(paged.body).toMatchObject({ page: 2, per_page: 2, total_pages: 3, total_count: 5 });
    expect(paged.body.environments.map((e: any) => e.name)).toEqual(['prod-ecs', 'prod-k8s']);
    expect(paged.body._links).toMatchObject({ next: expect.stringContaining('page=3'), prev: expect.stringContaining('page=1') });
    expect((await api.list({ page: 1 }).expect(200)).body).toMatchObject({ per_page: 15, total_count: 5 });
    expect((await api.list({ per_page: 2, page: 9 }).expect(200)).body.environments).toEqual([]);

    const names = async (query: Record<string, unknown>) => (await api.list(query).expect(200)).body.map((e: any) => e.name);
    expect(await names({ name: 'PROD' })).toEqual(['all-prod', 'prod-ecs', 'prod-k8s']);
    expect(await names({ type: 'K8S' })).toEqual(['prod-k8s', 'staging']);
    expect(await names({ type: ['K8S', 'S3'] })).toEqual(['bucket', 'prod-k8s', 'staging']);
    expect(await names({ tag: 'tier' })).toEqual(['prod-k8s', 'staging']);
    expect(await names({ tag: 'tier:test' })).toEqual(['staging']);
    expect(await names({ tag: ['tier', 'team:web'] })).toEqual(['staging']);
    expect(await names({ space_id: 'sp-1' })).toEqual([]);
    expect(await names({ sort_direction: 'desc' })).toEqual(['staging', 'prod-k8s', 'prod-ecs', 'bucket', 'all-prod']);
    expect((await names({ sort: 'last_changed_at', sort_direction: 'desc' }))[0]).toBe('staging');
    expect((await api.list({ sort: 'size' }).expect(400)).body.errors).toHaveProperty(['query.sort']);
    expect((await api.list({ per_page: 101 }).expect(400)).body.errors).toHaveProperty(['query.per_page']);
  });
});
