import Ajv from 'ajv';
import { ARTIFACT_LIST_SCHEMA, ARTIFACT_SCHEMA, BUILD_PAGE_SCHEMA, LATEST_COMMIT_SCHEMA } from '../../src/modules/artifact-catalog/dto/artifact.schema';
import { SEARCH_SCHEMA } from '../../src/modules/search/dto/search.schema';
import { REPO_LIVE_STATUS_SCHEMA } from '../../src/modules/repos/dto/repo.schema';
import { envApi, pod } from '../support/env-helpers';
import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { evidenceClient, fingerprint, TEMPLATE } from '../support/trail-helpers';

const ajv = new Ajv({ strict: false, allErrors: true });
/** The reference's shapes, as the API description states them: a body that does not match fails with why. */
function expectShape(schema: object, body: unknown) {
  const validate = ajv.compile(schema);
  expect(validate(body) ? 'ok' : ajv.errorsText(validate.errors)).toBe('ok');
}

const commit = (c: string) => c.repeat(40).slice(0, 40);
/** Starts as fingerprint('a') does: their first five characters are one ambiguous prefix. */
const FP2 = 'aaaaa' + 'b'.repeat(59);

describe('artifacts read back, and search by sha', () => {
  let t: TestApp;
  let org: TestOrg;
  const get = (path: string, query: Record<string, unknown> = {}) => t.http().get(`/api/v2/${path}`).query(query).set(...bearer(org.adminKey));

  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t);
    const c = evidenceClient(t, org);
    await c.createFlow('backend', TEMPLATE).expect(201);
    await c.beginTrail('backend', { name: 'build-1' }).expect(201);
    // Two artifacts of the template's flow, one from a second flow built from the same commit.
    await c
      .reportArtifact('backend', {
        fingerprint: fingerprint('a'),
        filename: 'backend:1',
        trail_name: 'build-1',
        template_reference_name: 'backend',
        git_commit: commit('c'),
        commit_url: 'https://git.example/c',
        build_url: 'https://ci.example/1',
        git_commit_info: { sha1: commit('c'), branch: 'main', message: 'm', author: 'a', timestamp: 1700000000 },
        repo_info: { name: 'acme/backend', url: 'https://git.example/acme/backend', id: '1', provider: 'github' },
      })
      .expect(201);
    await c.attest('backend', 'build-1', { attestation_name: 'unit-test', target_artifacts: ['backend'], is_compliant: false }).expect(201);
    await c.reportArtifact('backend', { fingerprint: FP2, filename: 'backend:2', trail_name: 'build-2', template_reference_name: 'backend', git_commit: commit('d') }).expect(201);
    await c.reportArtifact('frontend', { fingerprint: fingerprint('b'), filename: 'frontend:1', trail_name: 'build-1', template_reference_name: 'web', git_commit: commit('c') }).expect(201);
    // backend:1 runs in prod.
    const env = envApi(t, org);
    await env.create({ name: 'prod', type: 'K8S' }).expect(201);
    await env.report('prod', 'K8S', { artifacts: [pod('p1', { 'backend:1': fingerprint('a') })] }).expect(201);
  });
  afterAll(() => t.close());

  it('GET /artifacts/{org}: every report of the org, newest first, in the reference shape, paged', async () => {
    const all = (await get(`artifacts/${org.name}`).expect(200)).body;
    expectShape(ARTIFACT_LIST_SCHEMA, all);
    expect(all.map((a: any) => a.filename)).toEqual(['frontend:1', 'backend:2', 'backend:1']);
    const page2 = (await get(`artifacts/${org.name}`, { page: 2, per_page: 2 }).expect(200)).body;
    expect(page2.map((a: any) => a.filename)).toEqual(['backend:1']);
    expect((await get(`artifacts/${org.name}`, { page: 3, per_page: 2 }).expect(200)).body).toEqual([]);
    const byFlow = (await get(`artifacts/${org.name}`, { flow_name: 'frontend' }).expect(200)).body;
    expect(byFlow.map((a: any) => a.filename)).toEqual(['frontend:1']);
    const byRepo = (await get(`artifacts/${org.name}`, { repo_name: 'acme/backend' }).expect(200)).body;
    expect(byRepo.map((a: any) => a.filename)).toEqual(['backend:1']);
    expect((await get(`artifacts/${org.name}`, { flow_name: 'nope' }).expect(404)).body.message).toBe("Flow 'nope' not found");
    expect((await get(`artifacts/${org.name}`, { per_page: 101 }).expect(400)).body.errors).toHaveProperty(['query.per_page']);
    expect((await get(`artifacts/${org.name}`, { colour: 'red' }).expect(400)).body.errors).toHaveProperty(['query.colour']);
  });

  it('GET /artifacts/{org}/{flow}: one flow, with compliance, evidence and where it runs', async () => {
    const list = (await get(`artifacts/${org.name}/backend`).expect(200)).body;
    expectShape(ARTIFACT_LIST_SCHEMA, list);
    expect(list.map((a: any) => a.filename)).toEqual(['backend:2', 'backend:1']);
    const one = list[1];
    expect(one).toMatchObject({
      flow_name: 'backend',
      trail_name: 'build-1',
      template_reference_name: 'backend',
      git_commit: commit('c'),
      state: 'NON-COMPLIANT',
      repo_info: { name: 'acme/backend' },
      evidence: { 'unit-test': { evidence_type: 'generic', is_compliant: false, has_audit_package: false } },
      running: [{ environment_name: 'prod', snapshot_index: 1 }],
      exited: [],
    });
    expect(one.history.map((h: any) => h.event)).toEqual(["Reported to trail 'build-1' of flow 'backend' as 'backend'", 'Running in prod#1']);
    expect(list[0].state).toBe('INCOMPLETE'); // build-2 misses its pull-request and its unit test
    expect((await get(`artifacts/${org.name}/nope`).expect(404)).body.message).toBe("Flow 'nope' not found");
  });

  it('GET .../fingerprint/{fp}: one object; .../commit_sha/{sha}: an array; ?trail= narrows; 404 names what is missing', async () => {
    const one = (await get(`artifacts/${org.name}/backend/fingerprint/${fingerprint('a')}`).expect(200)).body;
    expectShape(ARTIFACT_SCHEMA, one);
    expect(one.filename).toBe('backend:1');
    await get(`artifacts/${org.name}/backend/fingerprint/${fingerprint('a')}`, { trail: 'build-2' }).expect(404);
    const missing = await get(`artifacts/${org.name}/backend/fingerprint/${fingerprint('f')}`).expect(404);
    expect(missing.body.message).toBe(`Artifact with fingerprint '${fingerprint('f')}' not found in flow 'backend'`);
    await get(`artifacts/${org.name}/nope/fingerprint/${fingerprint('a')}`).expect(404);

    const byCommit = (await get(`artifacts/${org.name}/backend/commit_sha/${commit('c')}`).expect(200)).body;
    expectShape(ARTIFACT_LIST_SCHEMA, byCommit);
    expect(byCommit.map((a: any) => a.filename)).toEqual(['backend:1']); // the frontend's artifact is another flow's
    expect((await get(`artifacts/${org.name}/backend/commit_sha/${commit('e')}`).expect(404)).body.message).toContain(commit('e'));
  });

  it('GET .../{fp}/latest_commit: the commit of the latest report, optionally on a branch', async () => {
    const latest = (await get(`artifacts/${org.name}/backend/${fingerprint('a')}/latest_commit`).expect(200)).body;
    expectShape(LATEST_COMMIT_SCHEMA, latest);
    expect(latest).toEqual({ latest_commit: commit('c') });
    expect((await get(`artifacts/${org.name}/backend/${fingerprint('a')}/latest_commit`, { branch: 'main' }).expect(200)).body).toEqual({
      latest_commit: commit('c'),
    });
    await get(`artifacts/${org.name}/backend/${fingerprint('a')}/latest_commit`, { branch: 'dev' }).expect(404);
    await get(`artifacts/${org.name}/backend/${fingerprint('f')}/latest_commit`).expect(404);
  });

  it('GET /search/{org}/sha/{value}: a fingerprint, a commit, or every match of an ambiguous prefix', async () => {
    const fp = (await get(`search/${org.name}/sha/${fingerprint('a').slice(0, 64)}`).expect(200)).body;
    expectShape(SEARCH_SCHEMA, fp);
    expect(fp.resolved_to).toMatchObject({ type: 'fingerprint', full_match: fingerprint('a'), fingerprints: { count: 1 }, commits: { count: 0 } });
    expect(fp.artifacts).toEqual([
      expect.objectContaining({ name: 'backend:1', flow: 'backend', trail: 'build-1', compliance_state: 'NON-COMPLIANT', running_in: ['prod'], exited_from: [] }),
    ]);

    // A commit prefix, in upper case, finds both flows' artifacts built from it.
    const c = (await get(`search/${org.name}/sha/${commit('c').slice(0, 7).toUpperCase()}`).expect(200)).body;
    expectShape(SEARCH_SCHEMA, c);
    expect(c.resolved_to).toMatchObject({ type: 'commit', full_match: commit('c'), commits: { count: 1, matches: [commit('c')] } });
    expect(c.artifacts.map((a: any) => a.name).sort()).toEqual(['backend:1', 'frontend:1']);

    // 'aaaaa' starts both fingerprint('a') and FP2: ambiguous, every match is answered.
    const many = (await get(`search/${org.name}/sha/aaaaa`).expect(200)).body;
    expectShape(SEARCH_SCHEMA, many);
    expect(many.resolved_to.type).toBe('multiple');
    expect(many.resolved_to.fingerprints.matches.sort()).toEqual([fingerprint('a'), FP2].sort());

    expect((await get(`search/${org.name}/sha/abcd`).expect(400)).body.errors).toHaveProperty(['path.search_value']);
    await get(`search/${org.name}/sha/xyzxyz`).expect(400);
    expect((await get(`search/${org.name}/sha/0123456`).expect(404)).body.message).toBe("No artifact or commit matching '0123456' found");
  });

  it('GET /search/{org}/sha/{value}: more than 100 matches answer the newest 100, newest first', async () => {
    const busy = await createOrg(t);
    const c = evidenceClient(t, busy);
    const fp = fingerprint('e');
    const sha = commit('e');
    for (let i = 0; i < 105; i++) {
      const trail = `t${String(i).padStart(3, '0')}`;
      await c.reportArtifact('busy', { fingerprint: fp, filename: 'app', trail_name: trail, template_reference_name: 'app', git_commit: sha }).expect(201);
    }
    const newest = Array.from({ length: 100 }, (_, i) => `t${String(104 - i).padStart(3, '0')}`);
    for (const value of [fp, sha.slice(0, 7)]) {
      const res = (await t.http().get(`/api/v2/search/${busy.name}/sha/${value}`).set(...bearer(busy.adminKey)).expect(200)).body;
      expect(res.artifacts.map((a: any) => a.trail)).toEqual(newest);
    }
  });

  it('GET /builds/{org}: the reports of a time window, newest first, paged, by repo', async () => {
    const all = (await get(`builds/${org.name}`).expect(200)).body;
    expectShape(BUILD_PAGE_SCHEMA, all);
    expect(all.builds.map((b: any) => [b.flow_name, b.trail_name])).toEqual([
      ['frontend', 'build-1'],
      ['backend', 'build-2'],
      ['backend', 'build-1'],
    ]);
    expect(all).toMatchObject({ page: 1, per_page: 15, total_pages: 1, total_count: 3 });
    const byRepo = (await get(`builds/${org.name}`, { repo_name: 'acme/backend' }).expect(200)).body;
    expect(byRepo.builds).toEqual([expect.objectContaining({ fingerprint: fingerprint('a'), repo_info: { id: '1', name: 'acme/backend', url: 'https://git.example/acme/backend', provider: 'github' } })]);
    expect((await get(`builds/${org.name}`, { repo_id: '1' }).expect(200)).body.total_count).toBe(1);
    const paged = (await get(`builds/${org.name}`, { per_page: 2, page: 2 }).expect(200)).body;
    expect([paged.builds.length, paged.total_pages, paged._links.prev !== null]).toEqual([1, 2, true]);
    expect((await get(`builds/${org.name}`, { 'end-ts': 1000 }).expect(200)).body.total_count).toBe(0); // 1970
    expect((await get(`builds/${org.name}`, { 'start-ts': 2000, 'end-ts': 1000 }).expect(400)).body.errors).toHaveProperty(['query.start-ts']);
    expect((await get(`builds/${org.name}`, { per_page: 51 }).expect(400)).body.errors).toHaveProperty(['query.per_page']);
  });

  it('GET /repos/{org}/live-artifacts/{repo}: what of the repo runs where, now', async () => {
    const live = (await get(`repos/${org.name}/live-artifacts/acme/backend`).expect(200)).body;
    expectShape(REPO_LIVE_STATUS_SCHEMA, live);
    expect(live.live_artifacts).toEqual([
      expect.objectContaining({ artifact_name: 'backend:1', fingerprint: fingerprint('a'), commit_sha: commit('c'), snapshot_index: 1, compliance: 'NON-COMPLIANT' }), // its trail failed its unit test
    ]);
    expect(live._embedded.environments).toEqual([expect.objectContaining({ name: 'prod', type: 'K8S' })]);
    expect(live._embedded.artifacts).toEqual([expect.objectContaining({ fingerprint: fingerprint('a'), commit_url: 'https://git.example/c' })]);
    // The %2F form reaches the same route.
    expect((await get(`repos/${org.name}/live-artifacts/acme%2Fbackend`).expect(200)).body.live_artifacts).toHaveLength(1);
    expect((await get(`repos/${org.name}/live-artifacts/acme/nothing`).expect(404)).body.message).toBe("Repo 'acme/nothing' not found");
  });

  it("another org's key sees none of it", async () => {
    const other = await createOrg(t);
    const res = await t.http().get(`/api/v2/artifacts/${other.name}`).set(...bearer(other.adminKey)).expect(200);
    expect(res.body).toEqual([]);
    await t.http().get(`/api/v2/search/${other.name}/sha/${fingerprint('a')}`).set(...bearer(other.adminKey)).expect(404);
    await t.http().get(`/api/v2/artifacts/${org.name}`).set(...bearer(other.adminKey)).expect(403);
  });
});
