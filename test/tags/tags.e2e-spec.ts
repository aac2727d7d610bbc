import { addMember, bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { evidenceClient } from '../support/trail-helpers';

describe('PATCH /tags/{org}/{resource_type}/{resource_id}', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const patch = (org: TestOrg, type: string, id: string, body: unknown, key = org.adminKey) =>
    t.http().patch(`/api/v2/tags/${org.name}/${type}/${encodeURIComponent(id)}`).set(...bearer(key)).send(body as object);
  const get = async (org: TestOrg, path: string) => (await t.http().get(`/api/v2/${path}`).set(...bearer(org.adminKey)).expect(200)).body;

  /** An org with one flow, one environment and one repo (registered through an attestation's repo_info). */
  async function seed() {
    const org = await createOrg(t);
    const c = evidenceClient(t, org);
    await c.createFlow('app').expect(201);
    await c.beginTrail('app', { name: 'main' }).expect(201);
    await c
      .attest('app', 'main', {
        attestation_name: 'pr',
        is_compliant: true,
        repo_info: { id: '4711', name: 'acme/web', url: 'https://github.com/acme/web', provider: 'github' },
      })
      .expect(201);
    await t.http().put(`/api/v2/environments/${org.name}`).set(...bearer(org.adminKey)).send({ name: 'prod', type: 'K8S', description: '' }).expect(201);
    const repo = await get(org, `repos/${org.name}/acme/web`);
    return { org, repoId: repo.id as string };
  }

  it('tags a flow, an environment and a repo under every spelling; tags show on each resource', async () => {
    const { org, repoId } = await seed();
    const cases: Array<[string[], string, string]> = [
      [['flow', 'flows'], 'app', `flows/${org.name}/app`],
      [['environment', 'environments', 'env'], 'prod', `environments/${org.name}/prod`],
      [['repo', 'repos'], repoId, `repos/${org.name}/acme/web`],
    ];
    for (const [spellings, id, read] of cases) {
      for (const spelling of spellings) {
        const res = await patch(org, spelling, id, { set_tags: { [spelling]: 'yes' } });
        expect({ spelling, status: res.status, body: res.body }).toEqual({ spelling, status: 200, body: 'OK' });
        expect(res.headers['content-type']).toMatch(/^application\/json/);
      }
      expect((await get(org, read)).tags).toEqual(Object.fromEntries(spellings.map((s) => [s, 'yes'])));
    }
    // ... and in the lists.
    expect((await get(org, `flows/${org.name}`))[0].tags).toEqual({ flow: 'yes', flows: 'yes' });
    expect((await get(org, `environments/${org.name}`))[0].tags).toEqual({ env: 'yes', environment: 'yes', environments: 'yes' });
  });

  it('removals apply after sets; removing an absent key is fine; values may be replaced', async () => {
    const { org } = await seed();
    await patch(org, 'flow', 'app', { set_tags: { team: 'a', tier: '1', keep: 'k' } }).expect(200);
    await patch(org, 'flow', 'app', { set_tags: { team: 'b', tier: '2' }, remove_tags: ['tier', 'never-there'] }).expect(200);
    expect((await get(org, `flows/${org.name}/app`)).tags).toEqual({ keep: 'k', team: 'b' });
    await patch(org, 'flow', 'app', { remove_tags: ['keep'] }).expect(200);
    await patch(org, 'flow', 'app', {}).expect(200);
    await patch(org, 'flow', 'app', { set_tags: null, remove_tags: null }).expect(200);
    expect((await get(org, `flows/${org.name}/app`)).tags).toEqual({ team: 'b' });
  });

  it('400 for an unknown resource type, a bad key or value, more than 50 tags; nothing changes', async () => {
    const { org } = await seed();
    await patch(org, 'flow', 'app', { set_tags: { a: '1' } }).expect(200);
    const unknown = await patch(org, 'pipeline', 'app', { set_tags: { b: '1' } }).expect(400);
    expect(unknown.body.errors).toEqual({ 'path.resource_type': expect.stringContaining('flow, flows, environment, environments, env') });
    const bad = await patch(org, 'flow', 'app', { set_tags: { '-x': '1', ok: 'v', n: 2, long: 'x'.repeat(257) } }).expect(400);
    expect(bad.body).toEqual({
      message: 'Input payload validation failed',
      errors: {
        'set_tags.-x': 'tag key must match ^[a-zA-Z0-9][a-zA-Z0-9\\-_.~]*$',
        'set_tags.n': 'must be a string',
        'set_tags.long': 'must be at most 256 characters',
      },
    });
    expect((await patch(org, 'flow', 'app', { set_tags: { a: '1' }, other: 1 }).expect(400)).body.errors).toEqual({ other: expect.stringContaining('unknown field') });
    expect((await patch(org, 'flow', 'app', { remove_tags: 'a' }).expect(400)).body.errors).toHaveProperty('remove_tags');
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));
    const tooMany = await patch(org, 'flow', 'app', { set_tags: fifty }).expect(400);
    expect(tooMany.body.errors).toEqual({ set_tags: 'a resource holds at most 50 tags; this update would leave 51' });
    expect((await get(org, `flows/${org.name}/app`)).tags).toEqual({ a: '1' });
    await patch(org, 'flow', 'app', { set_tags: fifty, remove_tags: ['a'] }).expect(200);
  });

  it('404 naming what is missing: flow, environment, repo (by id; a name or a malformed id is not found), control', async () => {
    const { org, repoId } = await seed();
    expect((await patch(org, 'flow', 'nope', { set_tags: { a: '1' } }).expect(404)).body.message).toBe("Flow 'nope' not found");
    expect((await patch(org, 'env', 'nope', { set_tags: { a: '1' } }).expect(404)).body.message).toBe("Environment 'nope' not found");
    expect((await patch(org, 'repo', 'acme/web', { set_tags: { a: '1' } }).expect(404)).body.message).toBe("Repo 'acme/web' not found");
    await patch(org, 'repos', '00000000-0000-4000-8000-000000000000', { set_tags: { a: '1' } }).expect(404);
    await patch(org, 'repo', repoId.toUpperCase(), { set_tags: { a: '1' } }).expect(200);
    const withControls = await createOrg(t, { features: ['controls'] });
    for (const spelling of ['control', 'controls']) {
      expect((await patch(withControls, spelling, 'ctl-1', { set_tags: { a: '1' } }).expect(404)).body.message).toBe("Control 'ctl-1' not found");
      // without the controls flag, 403 like the control routes (before looking the control up)
      await patch(org, spelling, 'ctl-1', { set_tags: { a: '1' } }).expect(403);
    }
  });

  it('a renamed flow or environment named by its old name: 308 to the same request under the new name, nothing written', async () => {
    const { org } = await seed();
    const as = bearer(org.adminKey);
    await t.http().put(`/api/v2/flows/${org.name}/app/rename`).set(...as).send({ new_name: 'app-2' }).expect(200);
    await t.http().put(`/api/v2/environments/${org.name}/prod/rename`).set(...as).send({ new_name: 'prod-2' }).expect(200);
    for (const [spelling, old, now, kind] of [
      ['flow', 'app', 'app-2', 'Flow'],
      ['flows', 'app', 'app-2', 'Flow'],
      ['env', 'prod', 'prod-2', 'Environment'],
      ['environments', 'prod', 'prod-2', 'Environment'],
    ]) {
      const res = await patch(org, spelling, old, { set_tags: { a: '1' } }).redirects(0);
      expect([res.status, res.headers.location, res.body.message]).toEqual([308, `/api/v2/tags/${org.name}/${spelling}/${now}`, `${kind} '${old}' was renamed to '${now}'`]);
    }
    expect((await get(org, `flows/${org.name}/app-2`)).tags).toEqual({});
    expect((await get(org, `environments/${org.name}/prod-2`)).tags).toEqual({});
    await patch(org, 'flow', 'app-2', { set_tags: { a: '1' } }).expect(200);
    // An unknown name, and a repo's 404, stay 404.
    await patch(org, 'flow', 'never-was', { set_tags: { a: '1' } }).redirects(0).expect(404);
    await patch(org, 'repo', 'app', { set_tags: { a: '1' } }).redirects(0).expect(404);
  });

  it("another org's resources are not found; a reader may not tag (member may)", async () => {
    const a = await seed();
    const b = await seed();
    await patch(a.org, 'flow', 'app', { set_tags: { mine: '1' } }).expect(200);
    await patch(a.org, 'repo', b.repoId, { set_tags: { x: '1' } }).expect(404);
    expect((await get(b.org, `flows/${b.org.name}/app`)).tags).toEqual({});
    expect((await get(b.org, `repos/${b.org.name}/acme/web`)).tags).toEqual({});
    const reader = await addMember(t, a.org.name, 'reader');
    await patch(a.org, 'flow', 'app', { set_tags: { r: '1' } }, reader).expect(403);
    const member = await addMember(t, a.org.name, 'member');
    await patch(a.org, 'flow', 'app', { set_tags: { m: '1' } }, member).expect(200);
  });
});
