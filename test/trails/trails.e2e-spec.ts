import { addMember, bearer, createOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { evidenceClient, fingerprint, TEMPLATE } from '../support/trail-helpers';

describe('trails', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('PUT /trails/{org}/{flow}: 201 begun, 200 updated; an update touches only the fields sent', async () => {
    const org = await createOrg(t);
    const c = evidenceClient(t, org);
    await c.createFlow('app').expect(201);
    const begun = await c
      .beginTrail('app', {
        name: 'build-1',
        description: 'first build',
        git_commit_info: { sha1: 'a'.repeat(40), message: 'msg', author: 'Ann <ann@x.io>', branch: 'main', timestamp: 1763770000.5, url: 'https://git/x' },
        user_data: { ticket: 'T-1' },
        origin_url: 'https://ci/run/1',
        external_urls: { docs: 'https://docs', sbom: { href: 'https://sbom', fingerprint: fingerprint('b') } },
      })
      .expect(201);
    expect(begun.headers['content-type']).toMatch(/application\/json/);
    expect(begun.body).toBe("Trail 'build-1' was begun");

    const updated = await c.beginTrail('app', { name: 'build-1', description: 'renamed' }).expect(200);
    expect(updated.body).toBe("Trail 'build-1' was updated");

    const got = await c.getTrail('app', 'build-1').expect(200);
    expect(got.body).toMatchObject({
      name: 'build-1',
      description: 'renamed',
      git_commit_info: { sha1: 'a'.repeat(40), branch: 'main', timestamp: 1763770000.5 },
      user_data: { ticket: 'T-1' },
      origin_url: 'https://ci/run/1',
      external_urls: { docs: { href: 'https://docs' }, sbom: { href: 'https://sbom', fingerprint: fingerprint('b') } },
      template: null,
      template_id: null,
      flow: { name: 'app', tags: {} },
      created_by: org.adminEmail,
      repo_ids: [],
      compliance_state: 'COMPLIANT',
      is_compliant: true,
      compliance_status: { status: 'COMPLIANT', is_compliant: true, attestations_statuses: [], artifacts_statuses: {}, flow_template_id: null },
    });
    expect(got.body.html_url).toContain(`/${org.name}/flows/app/trails/build-1`);
    expect(typeof got.body.created_at).toBe('number');
    expect(got.body.last_modified_at).toBeGreaterThanOrEqual(got.body.created_at);
    // begun + one real update = two moments; repeating the same update adds none
    expect(got.body.last_moment).toBe(2);
    expect(got.body.events.map((e: any) => [e.type, e.moment_number])).toEqual([
      ['trail_reported', 1],
      ['trail_updated', 2],
    ]);
    expect(typeof got.body.events[0].timestamp).toBe('number');
    await c.beginTrail('app', { name: 'build-1', description: 'renamed' }).expect(200);
    expect((await c.getTrail('app', 'build-1')).body.last_moment).toBe(2);
  });

  it('validates begin trail: 404 unknown flow, 400 with field paths, reader 403', async () => {
    const org = await createOrg(t);
    const c = evidenceClient(t, org);
    const noFlow = await c.beginTrail('nope', { name: 'x' }).expect(404);
    expect(noFlow.body).toEqual({ message: "Flow 'nope' not found", errors: null });
    await c.createFlow('app').expect(201);
    const bad = await c
      .beginTrail('app', {
        name: '.bad',
        colour: 'red',
        git_commit_info: { message: 'no sha' },
        external_urls: { docs: { url: 'x' } },
        user_data: 'text',
      })
      .expect(400);
    expect(bad.body.message).toBe('Input payload validation failed');
    expect(Object.keys(bad.body.errors).sort()).toEqual(['colour', 'external_urls', 'git_commit_info.sha1', 'name', 'user_data']);
    const unknownNested = await c
      .beginTrail('app', JSON.parse('{"name": "ok", "git_commit_info": {"sha1": "a", "bogus": 1, "constructor": {"x": 1}}, "repo_info": {"name": "r", "url": "u", "extra": 1}}'))
      .expect(400);
    expect(unknownNested.body.errors).toEqual({
      'git_commit_info.bogus': 'unknown field: it is not part of this request',
      'git_commit_info.constructor': 'unknown field: it is not part of this request',
      'repo_info.extra': 'unknown field: it is not part of this request',
    });
    const listForObject = await c.beginTrail('app', { name: 'ok', git_commit_info: [{ sha1: 'a' }] }).expect(400);
    expect(Object.keys(listForObject.body.errors)).toEqual(['git_commit_info']);
    expect((await c.beginTrail('app', '[{"name": "ok"}]').expect(400)).body.errors).toEqual({ data_json: 'must be a JSON object' });
    const badTemplate = await c.beginTrail('app', { name: 'ok' }, 'version: 1\ntrail:\n  artifacts:\n    - name: a b\n').expect(400);
    expect(badTemplate.body.errors).toEqual({ 'template_file.trail.artifacts[0].name': expect.stringContaining('must match') });
    await c.getTrail('app', 'ok').expect(404);
    const reader = await addMember(t, org.name, 'reader');
    await evidenceClient(t, org, reader).beginTrail('app', { name: 'r' }).expect(403);
    const missing = await c.getTrail('app', 'missing').expect(404);
    expect(missing.body).toEqual({ message: "Trail 'missing' not found in flow 'app'", errors: null });
  });

  it('accepts a JSON body as data_json (curl users); the form needs data_json', async () => {
    const org = await createOrg(t);
    const c = evidenceClient(t, org);
    await c.createFlow('app').expect(201);
    const res = await t.http().put(`/api/v2/trails/${org.name}/app`).set(...bearer(org.adminKey)).send({ name: 'json-1', description: 'd' }).expect(201);
    expect(res.body).toBe("Trail 'json-1' was begun");
    expect((await c.getTrail('app', 'json-1')).body.description).toBe('d');
    const noData = await t
      .http()
      .put(`/api/v2/trails/${org.name}/app`)
      .set(...bearer(org.adminKey))
      .field('description', 'x')
      .expect(400);
    expect(noData.body.errors).toEqual({ description: expect.stringContaining('unknown form field'), data_json: 'is required' });
  });

  it('repo_info registers the repo, readable at GET /repos/{org}/{name}', async () => {
    const org = await createOrg(t);
    const c = evidenceClient(t, org);
    await c.createFlow('app').expect(201);
    await c
      .beginTrail('app', {
        name: 'r1',
        repo_info: { id: '290597708', name: 'acme/web', url: 'https://github.com/acme/web', provider: 'github' },
      })
      .expect(201);
    const repo = await t.http().get(`/api/v2/repos/${org.name}/${encodeURIComponent('acme/web')}`).set(...bearer(org.adminKey)).expect(200);
    expect(repo.body).toMatchObject({ name: 'acme/web', url: 'https://github.com/acme/web', provider: 'github', repo_id: '290597708', tags: {} });
    expect(typeof repo.body.id).toBe('string');
    const raw = await t.http().get(`/api/v2/repos/${org.name}/acme/web`).set(...bearer(org.adminKey)).expect(200);
    expect(raw.body.id).toBe(repo.body.id);
    expect((await c.getTrail('app', 'r1')).body.repo_ids).toEqual([repo.body.id]);
    for (const provider of ['gitlab', 'bitbucket', 'bitbucket_cloud', 'azure-devops', 'azure_devops_services', 'git', 'subversion']) {
      await c.beginTrail('app', { name: `r-${provider}`, repo_info: { id: provider, name: `acme/${provider}`, url: 'https://x', provider } }).expect(201);
    }
    const missing = await t.http().get(`/api/v2/repos/${org.name}/acme%2Fnone`).set(...bearer(org.adminKey)).expect(404);
    expect(missing.body).toEqual({ message: "Repo 'acme/none' not found", errors: null });
  });

  it('compliance status of a templated trail: MISSING -> COMPLETE, unexpected, NON-COMPLIANT', async () => {
    const org = await createOrg(t);
    const c = evidenceClient(t, org);
    await c.createFlow('app', TEMPLATE).expect(201);
    await c.beginTrail('app', { name: 'b1' }).expect(201);

    let cs = (await c.getTrail('app', 'b1').expect(200)).body.compliance_status;
    expect(cs).toMatchObject({
      status: 'INCOMPLETE',
      is_compliant: false,
      attestations_statuses: [
        { attestation_name: 'pull-request', attestation_type: 'generic', attestation_id: null, status: 'MISSING', is_compliant: null, unexpected: false },
      ],
      artifacts_statuses: {
        backend: {
          artifact_fingerprint: null,
          status: 'MISSING',
          is_compliant: false,
          unexpected: false,
          attestations_statuses: [{ attestation_name: 'unit-test', status: 'MISSING', is_compliant: null, unexpected: false }],
        },
      },
    });

    const pr = await c.attest('app', 'b1', { attestation_name: 'pull-request', is_compliant: true }).expect(201);
    await c.reportArtifact('app', { fingerprint: fingerprint('c'), filename: 'backend:1', trail_name: 'b1', template_reference_name: 'backend' }).expect(201);
    cs = (await c.getTrail('app', 'b1')).body.compliance_status;
    expect(cs.status).toBe('INCOMPLETE');
    expect(cs.attestations_statuses[0]).toMatchObject({ status: 'COMPLETE', is_compliant: true, attestation_type: 'generic' });
    expect(cs.attestations_statuses[0].attestation_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(cs.artifacts_statuses.backend).toMatchObject({ artifact_fingerprint: fingerprint('c'), status: 'INCOMPLETE' });
    expect(pr.status).toBe(201);

    await c.attest('app', 'b1', { attestation_name: 'unit-test', is_compliant: true, artifact_fingerprint: fingerprint('c') }).expect(201);
    const trail = (await c.getTrail('app', 'b1')).body;
    expect(trail.compliance_state).toBe('COMPLIANT');
    expect(trail.is_compliant).toBe(true);
    expect(trail.compliance_status.artifacts_statuses.backend).toMatchObject({ status: 'COMPLIANT', is_compliant: true });
    expect(trail.template).toMatchObject({ version: 1, content: TEMPLATE, trail: { attestations: [{ name: 'pull-request', type: 'generic' }] } });
    expect(trail.events.map((e: any) => e.type)).toEqual([
      'trail_reported',
      'trail_attestation_reported',
      'artifact_creation_reported',
      'artifact_attestation_reported',
    ]);
    expect(trail.events[1]).toMatchObject({ template_reference_name: 'pull-request', attestation_type: 'generic', is_compliant: true });
    expect(trail.events[2]).toMatchObject({ artifact_fingerprint: fingerprint('c'), artifact_name: 'backend:1', template_reference_name: 'backend' });
    expect(trail.events[3]).toMatchObject({ target_artifact: 'backend', template_reference_name: 'unit-test' });

    await c.attest('app', 'b1', { attestation_name: 'lint', is_compliant: false }).expect(201);
    cs = (await c.getTrail('app', 'b1')).body.compliance_status;
    expect(cs.status).toBe('NON-COMPLIANT');
    expect(cs.attestations_statuses.map((s: any) => [s.attestation_name, s.unexpected, s.is_compliant])).toEqual([
      ['pull-request', false, true],
      ['lint', true, false],
    ]);
    // the latest attestation of a slot counts
    await c.attest('app', 'b1', { attestation_name: 'lint', is_compliant: true }).expect(201);
    expect((await c.getTrail('app', 'b1')).body.compliance_state).toBe('COMPLIANT');
  });

  it('compliance status of an untemplated trail: everything is unexpected; status follows the slots', async () => {
    const org = await createOrg(t);
    const c = evidenceClient(t, org);
    await c.attest('auto', 'a1', { attestation_name: 'tests', is_compliant: true }).expect(201);
    let body = (await c.getTrail('auto', 'a1').expect(200)).body;
    expect(body.template).toBeNull();
    expect(body.compliance_status).toMatchObject({
      status: 'COMPLIANT',
      attestations_statuses: [{ attestation_name: 'tests', status: 'COMPLETE', is_compliant: true, unexpected: true }],
    });
    await c.reportArtifact('auto', { fingerprint: fingerprint('d'), filename: 'x', trail_name: 'a1', template_reference_name: 'web' }).expect(201);
    await c.attest('auto', 'a1', { attestation_name: 'scan', is_compliant: false, artifact_fingerprint: fingerprint('d') }).expect(201);
    body = (await c.getTrail('auto', 'a1')).body;
    expect(body.compliance_status.status).toBe('NON-COMPLIANT');
    expect(body.compliance_status.artifacts_statuses.web).toMatchObject({
      artifact_fingerprint: fingerprint('d'),
      status: 'NON-COMPLIANT',
      unexpected: true,
      attestations_statuses: [{ attestation_name: 'scan', status: 'COMPLETE', is_compliant: false, unexpected: true }],
    });
  });

  it('a trail keeps the template it began with; a template file on begin trail gives the trail its own', async () => {
    const org = await createOrg(t);
    const c = evidenceClient(t, org);
    await c.createFlow('app', TEMPLATE).expect(201);
    await c.beginTrail('app', { name: 'old' }).expect(201);
    const oldTemplateId = (await c.getTrail('app', 'old')).body.template_id;
    expect(oldTemplateId).toMatch(/^[0-9a-f-]{36}$/);

    await c.createFlow('app', 'version: 1\ntrail:\n  attestations:\n    - name: security\n      type: generic\n').expect(200);
    await c.beginTrail('app', { name: 'new' }).expect(201);
    const newer = (await c.getTrail('app', 'new')).body;
    expect(newer.template_id).not.toBe(oldTemplateId);
    expect(newer.compliance_status.attestations_statuses.map((s: any) => s.attestation_name)).toEqual(['security']);
    const old = (await c.getTrail('app', 'old')).body;
    expect(old.template_id).toBe(oldTemplateId);
    expect(old.compliance_status.attestations_statuses.map((s: any) => s.attestation_name)).toEqual(['pull-request']);

    const own = 'version: 1\ntrail:\n  attestations:\n    - name: own\n      type: generic\n';
    await c.beginTrail('app', { name: 'old' }, own).expect(200);
    const changed = (await c.getTrail('app', 'old')).body;
    expect(changed.template_id).not.toBe(oldTemplateId);
    expect(changed.template.content).toBe(own);
    expect(changed.compliance_status.attestations_statuses.map((s: any) => s.attestation_name)).toEqual(['own']);
    // the flow's template is unchanged by a trail's own template
    const flow = await t.http().get(`/api/v2/flows/${org.name}/app`).set(...bearer(org.adminKey)).expect(200);
    expect(flow.body.template.trail.attestations).toEqual([{ name: 'security', type: 'generic' }]);
  });

  it('concurrent trails with their own templates each get a distinct template version', async () => {
    const org = await createOrg(t);
    const c = evidenceClient(t, org);
    await c.createFlow('app', TEMPLATE).expect(201);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        c.beginTrail('app', { name: `c${i}` }, `version: 1\ntrail:\n  attestations:\n    - name: own-${i}\n      type: generic\n`),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(201));
    const ids = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const trail = (await c.getTrail('app', `c${i}`)).body;
      expect(trail.compliance_status.attestations_statuses.map((x: any) => x.attestation_name)).toEqual([`own-${i}`]);
      ids.add(trail.template_id);
    }
    expect(ids.size).toBe(6);
  });

  it('lists trails newest first in the {data, pagination} envelope, per flow and per org', async () => {
    const org = await createOrg(t);
    const c = evidenceClient(t, org);
    await c.createFlow('one').expect(201);
    await c.createFlow('two').expect(201);
    for (const name of ['t1', 't2', 't3']) await c.beginTrail('one', { name }).expect(201);
    await c.beginTrail('two', { name: 'x1' }).expect(201);

    const page1 = await t.http().get(`/api/v2/trails/${org.name}/one?per_page=2`).set(...bearer(org.adminKey)).expect(200);
    expect(page1.body.data.map((x: any) => x.name)).toEqual(['t3', 't2']);
    expect(page1.body.pagination).toEqual({ total: 3, page: 1, per_page: 2, page_count: 2 });
    expect(page1.body.data[0].compliance_status.status).toBe('COMPLIANT');
    const page2 = await t.http().get(`/api/v2/trails/${org.name}/one?per_page=2&page=2`).set(...bearer(org.adminKey)).expect(200);
    expect(page2.body.data.map((x: any) => x.name)).toEqual(['t1']);
    const past = await t.http().get(`/api/v2/trails/${org.name}/one?per_page=2&page=3`).set(...bearer(org.adminKey)).expect(200);
    expect(past.body.data).toEqual([]);

    const byQuery = await t.http().get(`/api/v2/trails/${org.name}?flow=two`).set(...bearer(org.adminKey)).expect(200);
    expect(byQuery.body.data.map((x: any) => x.name)).toEqual(['x1']);
    expect(byQuery.body.pagination).toEqual({ total: 1, page: 1, per_page: 20, page_count: 1 });
    const all = await t.http().get(`/api/v2/trails/${org.name}`).set(...bearer(org.adminKey)).expect(200);
    expect(all.body.pagination.total).toBe(4);
    const unknownFlow = await t.http().get(`/api/v2/trails/${org.name}?flow=nope`).set(...bearer(org.adminKey)).expect(200);
    expect(unknownFlow.body.data).toEqual([]);

    const notFound = await t.http().get(`/api/v2/trails/${org.name}/nope`).set(...bearer(org.adminKey)).expect(404);
    expect(notFound.body).toEqual({ message: "Flow 'nope' not found", errors: null });
    const bad = await t.http().get(`/api/v2/trails/${org.name}/one?per_page=0&colour=red`).set(...bearer(org.adminKey)).expect(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['query.colour', 'query.per_page']);

    await t.dataSource.query(
      `UPDATE flows SET tags = '{"team": "core"}' WHERE name = 'two' AND org_id = (SELECT id FROM organizations WHERE name = $1)`,
      [org.name],
    );
    const byTag = await t.http().get(`/api/v2/trails/${org.name}?flow_tag=team=core`).set(...bearer(org.adminKey)).expect(200);
    expect(byTag.body.data.map((x: any) => [x.name, x.flow])).toEqual([['x1', { name: 'two', tags: { team: 'core' } }]]);
    const badTag = await t.http().get(`/api/v2/trails/${org.name}?flow_tag=nokeyvalue`).set(...bearer(org.adminKey)).expect(400);
    expect(Object.keys(badTag.body.errors)).toEqual(['query.flow_tag']);

    await c.reportArtifact('two', { fingerprint: fingerprint('e'), filename: 'f', trail_name: 'x2', template_reference_name: 'web' }).expect(201);
    const byFingerprint = await t.http().get(`/api/v2/trails/${org.name}?fingerprint=${fingerprint('e')}`).set(...bearer(org.adminKey)).expect(200);
    expect(byFingerprint.body.data.map((x: any) => x.name)).toEqual(['x2']);
  });
});
