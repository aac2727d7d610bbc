import { addMember, bearer, createOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { evidenceClient, fingerprint } from '../support/trail-helpers';

describe('artifacts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('POST /artifacts/{org}/{flow}: 201, creating the flow and trail when missing; each report is a moment', async () => {
    const org = await createOrg(t);
    const c = evidenceClient(t, org);
    const res = await c
      .reportArtifact('new-flow', { fingerprint: fingerprint('a'), filename: 'web:1.0', trail_name: 'build-9', template_reference_name: 'web' })
      .expect(201);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).toBe("Artifact 'web:1.0' was reported to trail 'build-9' as 'web'");
    await t.http().get(`/api/v2/flows/${org.name}/new-flow`).set(...bearer(org.adminKey)).expect(200);
    let trail = (await c.getTrail('new-flow', 'build-9').expect(200)).body;
    expect(trail.last_moment).toBe(2); // begun + artifact
    expect(trail.compliance_status.artifacts_statuses.web).toMatchObject({
      artifact_fingerprint: fingerprint('a'),
      artifact_filename: 'web:1.0',
      status: 'COMPLIANT',
      unexpected: true,
    });
    // reporting again into the same slot: the latest report counts
    await c.reportArtifact('new-flow', { fingerprint: fingerprint('b'), filename: 'web:1.1', trail_name: 'build-9', template_reference_name: 'web' }).expect(201);
    trail = (await c.getTrail('new-flow', 'build-9')).body;
    expect(trail.last_moment).toBe(3);
    expect(trail.compliance_status.artifacts_statuses.web.artifact_fingerprint).toBe(fingerprint('b'));
  });

  it('concurrent reports to a trail that does not exist yet create it once and number the moments densely', async () => {
    const org = await createOrg(t, { features: ['trail_moments'] });
    const c = evidenceClient(t, org);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        c.reportArtifact('race', { fingerprint: fingerprint(String(i % 10)), filename: `f${i}`, trail_name: 'r1', template_reference_name: `a${i}` }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(201));
    const trail = (await c.getTrail('race', 'r1').expect(200)).body;
    expect(trail.last_moment).toBe(13);
    expect(Object.keys(trail.compliance_status.artifacts_statuses)).toHaveLength(12);
    const kinds = trail.events.map((e: any) => [e.moment_number, e.type]);
    expect(kinds[0]).toEqual([1, 'trail_reported']);
    expect(kinds.map((k: any) => k[0])).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
    const list = await t.http().get(`/api/v2/trails/${org.name}/race`).set(...bearer(org.adminKey)).expect(200);
    expect(list.body.pagination.total).toBe(1);
  });

  it('mixed concurrent writers (attestations, artifacts, trail updates) on a new trail: no errors, dense moments', async () => {
    const org = await createOrg(t);
    const c = evidenceClient(t, org);
    await c.createFlow('mixed').expect(201);
    const writes = [
      ...Array.from({ length: 5 }, (_, i) => c.attest('mixed', 'm', { attestation_name: `check-${i}`, is_compliant: true })),
      ...Array.from({ length: 5 }, (_, i) =>
        c.reportArtifact('mixed', { fingerprint: fingerprint(String(i)), filename: `f${i}`, trail_name: 'm', template_reference_name: `a${i}` }),
      ),
      ...Array.from({ length: 3 }, (_, i) => c.beginTrail('mixed', { name: 'm', description: `d${i}` })),
    ];
    const statuses = (await Promise.all(writes)).map((r) => r.status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(201));
    expect(statuses.slice(10).sort()).toEqual(expect.arrayContaining([200]));
    expect(statuses.slice(10).every((s) => s === 200 || s === 201)).toBe(true);
    const trail = (await c.getTrail('mixed', 'm')).body;
    expect(trail.events.map((e: any) => e.moment_number)).toEqual(Array.from({ length: trail.last_moment }, (_, i) => i + 1));
    expect(trail.events.filter((e: any) => e.type === 'trail_attestation_reported')).toHaveLength(5);
    expect(trail.events.filter((e: any) => e.type === 'artifact_creation_reported')).toHaveLength(5);
  });

  it('accepts everything the open-source CLI sends', async () => {
    const org = await createOrg(t);
    const c = evidenceClient(t, org);
    await c
      .reportArtifact('app', {
        fingerprint: fingerprint('c'),
        filename: 'registry/app:abc',
        trail_name: 'abc',
        template_reference_name: 'app',
        description: '',
        git_commit: 'a'.repeat(40),
        git_commit_info: { sha1: 'a'.repeat(40), message: 'm', author: 'A', author_username: 'a', branch: 'main', timestamp: 1763770000, url: 'https://g', parents: ['b'.repeat(40)] },
        commits_list: [{ sha1: 'b'.repeat(40), message: 'older', author: 'B', branch: 'main', timestamp: 1763760000 }],
        build_url: 'https://ci/1',
        commit_url: 'https://g/commit/1',
        repo_url: 'https://github.com/acme/app',
        repo_info: { id: '123', name: 'acme/app', url: 'https://github.com/acme/app', provider: 'azure_devops_services', description: 'd' },
        external_urls: { ticket: 'https://jira/T-1', sbom: { href: 'https://sbom', fingerprint: fingerprint('d') } },
        annotations: { team: 'core' },
        user_data: { k: 1 },
        is_compliant: true,
        template: ['artifact'],
      })
      .expect(201);
    const repo = await t.http().get(`/api/v2/repos/${org.name}/acme%2Fapp`).set(...bearer(org.adminKey)).expect(200);
    expect(repo.body).toMatchObject({ repo_id: '123', provider: 'azure_devops_services' });
    // git_commit may be empty or null (the CLI sends "" when unknown)
    await c.reportArtifact('app', { fingerprint: fingerprint('c'), filename: 'x', trail_name: 'abc', template_reference_name: 'app', git_commit: '', repo_url: null }).expect(201);
    // every optional field may be null
    const nulls = Object.fromEntries(
      ['description', 'git_commit', 'git_commit_info', 'commits_list', 'build_url', 'commit_url', 'repo_url', 'repo_info', 'is_compliant',
        'template', 'external_urls', 'annotations', 'user_data'].map((k) => [k, null]),
    );
    await c.reportArtifact('app', { fingerprint: fingerprint('c'), filename: 'y', trail_name: 'abc', template_reference_name: 'app', ...nulls }).expect(201);
    await c
      .beginTrail('app', { name: 'abc', description: null, git_commit_info: null, repo_info: null, user_data: null, origin_url: null, external_urls: null })
      .expect(200);
  });

  it('400 with field paths, 403 for readers', async () => {
    const org = await createOrg(t);
    const c = evidenceClient(t, org);
    const res = await c
      .reportArtifact('app', {
        fingerprint: 'ABC',
        trail_name: '.x',
        template_reference_name: 'has space',
        colour: 'red',
        git_commit_info: { sha1: 'a', extra: 1 },
        external_urls: { x: 3 },
        annotations: { 'bad key': 'v' },
      })
      .expect(400);
    expect(res.body.message).toBe('Input payload validation failed');
    expect(Object.keys(res.body.errors).sort()).toEqual([
      'annotations',
      'colour',
      'external_urls',
      'filename',
      'fingerprint',
      'git_commit_info.extra',
      'template_reference_name',
      'trail_name',
    ]);
    const badFlow = await c.reportArtifact('-flow', { fingerprint: fingerprint('a'), filename: 'f', trail_name: 't', template_reference_name: 'w' }).expect(400);
    expect(badFlow.body.errors).toEqual({ 'path.flow_name': expect.stringContaining('must match') });
    // The path follows the same name rule as PUT /flows, length included.
    const longFlow = await c.reportArtifact('f'.repeat(257), { fingerprint: fingerprint('a'), filename: 'f', trail_name: 't', template_reference_name: 'w' }).expect(400);
    expect(longFlow.body.errors).toEqual({ 'path.flow_name': 'must be shorter than or equal to 256 characters' });
    await t.http().get(`/api/v2/flows/${org.name}/-flow`).set(...bearer(org.adminKey)).expect(404);

    const reader = await addMember(t, org.name, 'reader');
    await evidenceClient(t, org, reader)
      .reportArtifact('app', { fingerprint: fingerprint('a'), filename: 'f', trail_name: 't', template_reference_name: 'w' })
      .expect(403);
  });
});
