import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { digest, envApi, pod } from '../support/env-helpers';
import { evidenceClient } from '../support/trail-helpers';

describe('repos: list, read by name, tag choices', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const get = (org: TestOrg, path: string, query: Record<string, unknown> = {}) =>
    t.http().get(`/api/v2/repos/${org.name}${path}`).query(query).set(...bearer(org.adminKey));
  const tag = (org: TestOrg, id: string, set: Record<string, string>) =>
    t.http().patch(`/api/v2/tags/${org.name}/repo/${id}`).set(...bearer(org.adminKey)).send({ set_tags: set }).expect(200);

  /** Repos are created or updated from `repo_info` (here on attestations, as the CLI sends it). */
  async function withRepos(repos: Array<{ id: string; name: string; provider?: string }>) {
    const org = await createOrg(t);
    const c = evidenceClient(t, org);
    await c.createFlow('app').expect(201);
    await c.beginTrail('app', { name: 'main' }).expect(201);
    for (const r of repos) {
      await c
        .attest('app', 'main', {
          attestation_name: 'pr',
          is_compliant: true,
          repo_info: { id: r.id, name: r.name, url: `https://example.com/${r.name}`, provider: r.provider ?? 'github' },
        })
        .expect(201);
    }
    return org;
  }

  it('lists repos sorted by name in the reference envelope, paged, with filters name, search, provider, repo_id, tag', async () => {
    const org = await withRepos([
      { id: '3', name: 'acme/web' },
      { id: '1', name: 'acme/api' },
      { id: '2', name: 'other/tool', provider: 'gitlab' },
      { id: '4', name: 'acme/web', provider: 'gitlab' },
    ]);
    const all = await get(org, '').expect(200);
    expect(all.body).toMatchObject({ page: 1, per_page: 15, total_pages: 1, total_count: 4 });
    expect(all.body.repos.map((r: any) => `${r.name}@${r.provider}`)).toEqual(['acme/api@github', 'acme/web@github', 'acme/web@gitlab', 'other/tool@gitlab']);
    expect(all.body.repos[0]).toMatchObject({ name: 'acme/api', repo_id: '1', tags: {} });
    expect(all.body._links.self).toContain(`/api/v2/repos/${org.name}?`);

    const page2 = await get(org, '', { page: 2, per_page: 3 }).expect(200);
    expect(page2.body).toMatchObject({ page: 2, per_page: 3, total_pages: 2, total_count: 4 });
    expect(page2.body.repos.map((r: any) => r.name)).toEqual(['other/tool']);
    expect((await get(org, '', { page: 9 }).expect(200)).body.repos).toEqual([]);
    expect((await get(org, '', { sort_direction: 'desc' }).expect(200)).body.repos[0].name).toBe('other/tool');

    expect((await get(org, '', { name: 'acme/web' }).expect(200)).body.total_count).toBe(2);
    expect((await get(org, '', { name: 'acme' }).expect(200)).body.total_count).toBe(0);
    expect((await get(org, '', { search: 'ACME' }).expect(200)).body.total_count).toBe(3);
    expect((await get(org, '', { search: 'acme', name: 'acme/api' }).expect(200)).body.total_count).toBe(1);
    expect((await get(org, '', { provider: 'gitlab' }).expect(200)).body.repos.map((r: any) => r.name)).toEqual(['acme/web', 'other/tool']);
    expect((await get(org, '', { repo_id: '2', name: 'ignored' }).expect(200)).body.repos.map((r: any) => r.name)).toEqual(['other/tool']);

    const api = all.body.repos.find((r: any) => r.name === 'acme/api');
    const tool = all.body.repos.find((r: any) => r.name === 'other/tool');
    await tag(org, api.id, { team: 'core', tier: '1' });
    await tag(org, tool.id, { team: 'tools' });
    expect((await get(org, '', { tag: 'team' }).expect(200)).body.total_count).toBe(2);
    expect((await get(org, '', { tag: 'team:core' }).expect(200)).body.repos.map((r: any) => r.name)).toEqual(['acme/api']);
    expect((await get(org, '', { tag: ['team=core', 'tier:1'] }).expect(200)).body.total_count).toBe(1);
    expect((await get(org, '', { tag: ['team', 'tier:2'] }).expect(200)).body.total_count).toBe(0);
  });

  it('400 for bad paging or filters', async () => {
    const org = await withRepos([]);
    expect((await get(org, '', { per_page: 0 }).expect(400)).body.errors).toHaveProperty(['query.per_page']);
    expect((await get(org, '', { sort_direction: 'up' }).expect(400)).body.errors).toHaveProperty(['query.sort_direction']);
    expect((await get(org, '', { search: 'x'.repeat(513) }).expect(400)).body.errors).toHaveProperty(['query.search']);
    expect((await get(org, '', { unknown: 1 }).expect(400)).body.errors).toHaveProperty(['query.unknown']);
  });

  it('GET /repos/{org}/{name} takes names with slashes, raw or encoded, and an optional provider', async () => {
    const org = await withRepos([
      { id: '10', name: 'group/sub/deep' },
      { id: '11', name: 'acme/web', provider: 'github' },
      { id: '12', name: 'acme/web', provider: 'gitlab' },
    ]);
    const deep = await get(org, '/group/sub/deep').expect(200);
    expect(deep.body).toMatchObject({ name: 'group/sub/deep', repo_id: '10' });
    expect((await get(org, `/${encodeURIComponent('group/sub/deep')}`).expect(200)).body.id).toBe(deep.body.id);
    expect((await get(org, '/acme/web', { provider: 'github' }).expect(200)).body.repo_id).toBe('11');
    expect((await get(org, '/acme/web', { provider: 'gitlab' }).expect(200)).body.repo_id).toBe('12');
    expect((await get(org, '/acme/web', { provider: 'bitbucket' }).expect(404)).body.message).toBe("Repo 'acme/web' not found");
  });

  it('repos of two providers sharing a provider id stay two repos, each with its own row and tags', async () => {
    const org = await withRepos([{ id: '101', name: 'acme/web', provider: 'github' }]);
    const github = (await get(org, '/acme/web', { provider: 'github' }).expect(200)).body;
    await tag(org, github.id, { team: 'web' });
    const c = evidenceClient(t, org);
    await c.beginTrail('app', { name: 'gl', repo_info: { id: '101', name: 'someone/else', url: 'https://gitlab.example/someone/else', provider: 'gitlab' } }).expect(201);
    await c.beginTrail('app', { name: 'gh', repo_info: { id: '101', name: 'acme/web', url: 'https://example.com/acme/web', provider: 'github' } }).expect(201);

    expect((await get(org, '').expect(200)).body.repos.map((r: any) => [r.name, r.provider, r.repo_id])).toEqual([
      ['acme/web', 'github', '101'],
      ['someone/else', 'gitlab', '101'],
    ]);
    expect((await get(org, '/acme/web', { provider: 'github' }).expect(200)).body).toMatchObject({
      id: github.id,
      url: 'https://example.com/acme/web',
      tags: { team: 'web' },
    });
    const gitlab = (await get(org, '/someone/else', { provider: 'gitlab' }).expect(200)).body;
    expect(gitlab).toMatchObject({ repo_id: '101', url: 'https://gitlab.example/someone/else', tags: {} });
    expect(gitlab.id).not.toBe(github.id);
    // a trail names the repo of its own provider
    expect((await c.getTrail('app', 'gl').expect(200)).body.repo_ids).toEqual([gitlab.id]);
    expect((await c.getTrail('app', 'gh').expect(200)).body.repo_ids).toEqual([github.id]);
    expect((await get(org, '', { repo_id: '101', provider: 'github' }).expect(200)).body.total_count).toBe(1);

    // no provider is a key of its own: one provider-less repo 101, updated in place
    for (const name of ['nowhere/one', 'nowhere/renamed']) {
      await c.beginTrail('app', { name: 'np', repo_info: { id: '101', name, url: 'https://example.com/np' } }).expect(name === 'nowhere/one' ? 201 : 200);
    }
    const byId = (await get(org, '', { repo_id: '101' }).expect(200)).body.repos;
    expect(byId.map((r: any) => [r.name, r.provider])).toEqual([
      ['acme/web', 'github'],
      ['nowhere/renamed', null],
      ['someone/else', 'gitlab'],
    ]);
    expect((await c.getTrail('app', 'np').expect(200)).body.repo_ids).toEqual([byId[1].id]);
  });

  it('live artifacts of a repo are the reports that registered it: same provider and id, not a namesake', async () => {
    const org = await createOrg(t);
    const c = evidenceClient(t, org);
    const gh = digest(`${org.name}-gh`), gl = digest(`${org.name}-gl`), other = digest(`${org.name}-other`);
    const repo = (id: string, name: string, provider: string) => ({ id, name, url: `https://${provider}.example/${name}`, provider });
    await c.createFlow('f').expect(201);
    await c.beginTrail('f', { name: 't1' }).expect(201);
    const report = (fingerprint: string, filename: string, repoInfo: object) =>
      c.reportArtifact('f', { fingerprint, filename, trail_name: 't1', template_reference_name: 'app', repo_info: repoInfo }).expect(201);
    await report(gh, 'gh-app', repo('101', 'acme/web', 'github'));
    await report(gl, 'gl-app', repo('202', 'acme/web', 'gitlab'));
    await report(other, 'other-app', repo('101', 'someone/else', 'gitlab'));
    const env = envApi(t, org);
    await env.create({ name: 'k', type: 'K8S' }).expect(201);
    await env.report('k', 'K8S', { artifacts: [pod('p1', { 'gh-app': gh, 'gl-app': gl, 'other-app': other })] }).expect(201);

    const live = async (name: string, provider: string) =>
      (await get(org, `/live-artifacts/${name}`, { provider }).expect(200)).body.live_artifacts.map((a: any) => a.artifact_name);
    expect(await live('acme/web', 'github')).toEqual(['gh-app']);
    expect(await live('acme/web', 'gitlab')).toEqual(['gl-app']);
    expect(await live('someone/else', 'gitlab')).toEqual(['other-app']);
  });

  it('page links of a tag-filtered list keep every tag filter', async () => {
    const org = await withRepos([
      { id: '1', name: 'a/one' },
      { id: '2', name: 'a/two' },
      { id: '3', name: 'a/three' },
      { id: '4', name: 'b/untagged' },
      { id: '5', name: 'b/half' },
    ]);
    for (const r of (await get(org, '').expect(200)).body.repos) {
      if (r.name.startsWith('a/')) await tag(org, r.id, { team: 'web', tier: '1' });
      if (r.name === 'b/half') await tag(org, r.id, { team: 'web' });
    }
    const first = await get(org, '', { tag: ['team:web', 'tier'], per_page: 2 }).expect(200);
    expect(first.body).toMatchObject({ total_count: 3, total_pages: 2 });
    expect(first.body.repos.map((r: any) => r.name)).toEqual(['a/one', 'a/three']);
    const follow = (link: string) => {
      const url = new URL(link);
      expect(url.searchParams.getAll('tag')).toEqual(['team:web', 'tier']);
      return t.http().get(url.pathname + url.search).set(...bearer(org.adminKey)).expect(200);
    };
    const next = await follow(first.body._links.next);
    expect(next.body).toMatchObject({ page: 2, total_count: 3 });
    expect(next.body.repos.map((r: any) => r.name)).toEqual(['a/two']);
    expect((await follow(next.body._links.prev)).body.repos.map((r: any) => r.name)).toEqual(['a/one', 'a/three']);
    for (const rel of ['self', 'first', 'last']) await follow(next.body._links[rel]);
  });

  it('GET /repos/{org}/tags: distinct pairs sorted by key then value, matched before the repo-name route', async () => {
    const org = await withRepos([
      { id: '1', name: 'a/one' },
      { id: '2', name: 'a/two' },
      { id: '3', name: 'tags' },
    ]);
    expect((await get(org, '/tags').expect(200)).body).toEqual({ tag_choices: [], _links: { self: expect.stringContaining(`/api/v2/repos/${org.name}/tags`) } });
    const repos = (await get(org, '').expect(200)).body.repos;
    const id = (name: string) => repos.find((r: any) => r.name === name).id;
    await tag(org, id('a/one'), { team: 'web', env: 'prod' });
    await tag(org, id('a/two'), { team: 'api', env: 'prod' });
    await tag(org, id('tags'), { team: 'web' });
    expect((await get(org, '/tags').expect(200)).body.tag_choices).toEqual([
      { key: 'env', value: 'prod' },
      { key: 'team', value: 'api' },
      { key: 'team', value: 'web' },
    ]);
    // `/repos/{org}/tags` is always the tag choices; a repo named `tags` is found through the list.
    expect((await get(org, '', { name: 'tags' }).expect(200)).body.repos[0].tags).toEqual({ team: 'web' });
  });

  it('404 naming an unknown organization', async () => {
    const org = await withRepos([]);
    for (const path of ['', '/tags', '/acme/web']) {
      const res = await t.http().get(`/api/v2/repos/no-such-org-x${path}`).set(...bearer(org.adminKey)).expect(404);
      expect(res.body.message).toBe("Organization 'no-such-org-x' not found");
    }
  });
});
