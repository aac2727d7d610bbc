import { addMember, bearer, createOrg, TestOrg } from '../support/factories';
import { waitForBlockedBy } from '../support/locks';
import { startTestApp, TestApp } from '../support/test-app';

describe('controls (beta controls)', () => {
  let t: TestApp;
  let org: TestOrg;
  const as = (key: string) => ({
    post: (path: string) => t.http().post(`/api/v2/controls/${org.name}${path}`).set(...bearer(key)),
    put: (path: string) => t.http().put(`/api/v2/controls/${org.name}${path}`).set(...bearer(key)),
    get: (path: string) => t.http().get(`/api/v2/controls/${org.name}${path}`).set(...bearer(key)),
  });

  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t, { features: ['controls'] });
  });
  afterAll(() => t.close());

  it('creates a control (201) with the control record; a taken identifier is 409', async () => {
    const res = await as(org.adminKey).post('').send({ identifier: 'SDLC-1', name: 'Code review', description: 'Two reviewers', links: { runbook: 'https://r.example' } }).expect(201);
    expect(res.body).toEqual({
      identifier: 'SDLC-1',
      name: 'Code review',
      version: 1,
      created_by: org.adminEmail,
      description: 'Two reviewers',
      links: { runbook: 'https://r.example' },
      created_at: expect.any(Number),
      last_modified_at: expect.any(Number),
      tags: {},
      archived: false,
      policies_referencing: [],
    });
    const again = await as(org.adminKey).post('').send({ identifier: 'SDLC-1', name: 'Other' });
    expect([again.status, again.body.message]).toEqual([409, "Control 'SDLC-1' already exists"]);
  });

  it('validates the body strictly', async () => {
    const res = await as(org.adminKey).post('').send({ identifier: 'has space', name: '', links: { a: 1 }, owner: 'x' });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors).sort()).toEqual(['identifier', 'links', 'name', 'owner']);
  });

  it('edits partially and counts versions; an edit that changes nothing is not a version', async () => {
    await as(org.adminKey).post('').send({ identifier: 'SDLC-2', name: 'Tests' }).expect(201);
    const edited = await as(org.adminKey).put('/SDLC-2').send({ description: 'Unit and e2e' }).expect(200);
    expect(edited.body).toMatchObject({ name: 'Tests', description: 'Unit and e2e', version: 2 });
    const same = await as(org.adminKey).put('/SDLC-2').send({ description: 'Unit and e2e' }).expect(200);
    expect(same.body.version).toBe(2);
    const links = await as(org.adminKey).put('/SDLC-2').send({ links: { doc: 'https://d.example' } }).expect(200);
    expect(links.body).toMatchObject({ links: { doc: 'https://d.example' }, version: 3 });
    expect((await as(org.adminKey).put('/NOPE').send({ name: 'x' })).status).toBe(404);
  });

  it('an optional field sent as null is as if it were not sent (create and edit): never a 500, never a stored null', async () => {
    const created = await as(org.adminKey).post('').send({ identifier: 'SDLC-NULL', name: 'Nulls', description: null, links: null }).expect(201);
    expect(created.body).toMatchObject({ description: '', links: {}, version: 1 });
    await as(org.adminKey).put('/SDLC-NULL').send({ description: 'kept', links: { doc: 'https://d.example' } }).expect(200);
    for (const body of [{ name: null }, { description: null }, { links: null }, { name: null, description: null, links: null }]) {
      const res = await as(org.adminKey).put('/SDLC-NULL').send(body);
      expect([res.status, res.body]).toEqual([200, expect.objectContaining({ name: 'Nulls', description: 'kept', links: { doc: 'https://d.example' }, version: 2 })]);
    }
    const mixed = await as(org.adminKey).put('/SDLC-NULL').send({ name: 'Renamed', links: null }).expect(200);
    expect(mixed.body).toMatchObject({ name: 'Renamed', links: { doc: 'https://d.example' }, version: 3 });
    const v3 = await as(org.adminKey).get('/SDLC-NULL/versions/3').expect(200);
    expect(v3.body).toMatchObject({ name: 'Renamed', description: 'kept', links: { doc: 'https://d.example' } });
  });

  it('archives idempotently (no body, an empty body or null) and unarchives', async () => {
    await as(org.adminKey).post('').send({ identifier: 'SDLC-3', name: 'Old' }).expect(201);
    const first = await as(org.adminKey).post('/SDLC-3/archive').expect(200);
    expect(first.body).toMatchObject({ archived: true, version: 2 });
    const second = await as(org.adminKey).post('/SDLC-3/archive').set('Content-Type', 'application/json').send('null').expect(200);
    expect(second.body).toEqual(first.body);
    await as(org.adminKey).post('/SDLC-3/archive').set('Content-Type', 'application/json').send('').expect(200);
    const back = await as(org.adminKey).post('/SDLC-3/unarchive').expect(200);
    expect(back.body).toMatchObject({ archived: false, version: 3 });
    expect((await as(org.adminKey).post('/NOPE/archive')).status).toBe(404);
  });

  it('a decision or a policy naming a control while it is being archived waits for the archive and is refused', async () => {
    await as(org.adminKey).post('').send({ identifier: 'RACE-1', name: 'Race' }).expect(201);
    const runner = t.dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      // What an archive does in its transaction, held open: the control's row taken and changed, not committed.
      await runner.query(`UPDATE controls SET archived = true WHERE identifier = 'RACE-1' AND org_id = (SELECT id FROM organizations WHERE name = $1)`, [org.name]);
      const [{ pid }] = await runner.query(`SELECT pg_backend_pid() AS pid`);
      const decision = t
        .http()
        .post(`/api/v2/attestations/${org.name}/race-app/trail/t1/system`)
        .set(...bearer(org.adminKey))
        .field('data_json', JSON.stringify({ type_name: 'decision', attestation_name: 'gate', control: 'RACE-1', attestation_data: { is_compliant: true } }))
        .then((r) => r);
      const policy = t
        .http()
        .put(`/api/v2/policies/${org.name}`)
        .set(...bearer(org.adminKey))
        .field('payload', JSON.stringify({ name: 'race-policy' }))
        .attach('policy_file', Buffer.from('_schema: https://docs.kosli.com/schemas/policy/v1\nartifacts:\n  attestations:\n    - type: decision\n      for_control: RACE-1\n'), 'policy.yaml')
        .then((r) => r);
      // Both past their first look at the control and waiting for its row: then the archive commits.
      await waitForBlockedBy(t.dataSource, pid, 2, 'the decision and the policy waiting for the control');
      await runner.commitTransaction();
      const [d, p] = await Promise.all([decision, policy]);
      expect([d.status, d.body.errors]).toEqual([400, { control: 'is archived' }]);
      expect([p.status, p.body.errors]).toEqual([400, { 'policy_file.artifacts.attestations[0].for_control': "control 'RACE-1' is archived" }]);
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    }
    await t.http().get(`/api/v2/flows/${org.name}/race-app`).set(...bearer(org.adminKey)).expect(404);
    await t.http().get(`/api/v2/policies/${org.name}/race-policy`).set(...bearer(org.adminKey)).expect(404);
  });

  it("policies_referencing lists the org's policies whose latest version has a decision rule for the control", async () => {
    await as(org.adminKey).post('').send({ identifier: 'REF-1', name: 'Referenced' }).expect(201);
    const putPolicy = (name: string, yaml: string) =>
      t
        .http()
        .put(`/api/v2/policies/${org.name}`)
        .set(...bearer(org.adminKey))
        .field('payload', JSON.stringify({ name }))
        .attach('policy_file', Buffer.from(`_schema: https://docs.kosli.com/schemas/policy/v1\n${yaml}`), 'policy.yaml');
    const decision = 'artifacts:\n  attestations:\n    - type: decision\n      for_control: REF-1\n';
    await putPolicy('zeta-gate', decision).expect(201);
    await putPolicy('alpha-gate', decision).expect(201);
    await putPolicy('unrelated', 'artifacts:\n  provenance:\n    required: true\n').expect(201);
    expect((await as(org.adminKey).get('/REF-1').expect(200)).body.policies_referencing).toEqual(['alpha-gate', 'zeta-gate']);
    const listed = await as(org.adminKey).get('').query({ search: 'REF-1' }).expect(200);
    expect(listed.body.controls.map((c: any) => [c.identifier, c.policies_referencing])).toEqual([['REF-1', ['alpha-gate', 'zeta-gate']]]);
    // Only the latest version counts: a version without the rule no longer references the control.
    await putPolicy('zeta-gate', 'artifacts:\n  provenance:\n    required: true\n').expect(200);
    expect((await as(org.adminKey).put('/REF-1').send({ description: 'edited' }).expect(200)).body.policies_referencing).toEqual(['alpha-gate']);
    expect((await as(org.adminKey).post('/REF-1/archive').expect(200)).body.policies_referencing).toEqual(['alpha-gate']);
    // Policies of another org never show.
    const other = await createOrg(t, { features: ['controls'] });
    await t.http().post(`/api/v2/controls/${other.name}`).set(...bearer(other.adminKey)).send({ identifier: 'REF-1', name: 'Theirs' }).expect(201);
    expect((await t.http().get(`/api/v2/controls/${other.name}/REF-1`).set(...bearer(other.adminKey)).expect(200)).body.policies_referencing).toEqual([]);
  });

  it('lists active controls by name, paged, searchable; archived ones on request', async () => {
    const other = await createOrg(t, { features: ['controls'] });
    const key = other.adminKey;
    const post = (body: object) => t.http().post(`/api/v2/controls/${other.name}`).set(...bearer(key)).send(body).expect(201);
    await post({ identifier: 'B-1', name: 'Beta' });
    await post({ identifier: 'A-1', name: 'Alpha' });
    await post({ identifier: 'C-1', name: 'Gamma' });
    await t.http().post(`/api/v2/controls/${other.name}/C-1/archive`).set(...bearer(key)).expect(200);
    const list = (q = '') => t.http().get(`/api/v2/controls/${other.name}${q}`).set(...bearer(key)).expect(200);
    const all = await list();
    expect(all.body).toMatchObject({ page: 1, per_page: 20, total_pages: 1, total_count: 2 });
    expect(all.body.controls.map((c: any) => c.identifier)).toEqual(['A-1', 'B-1']);
    expect((await list('?sort_direction=desc')).body.controls.map((c: any) => c.identifier)).toEqual(['B-1', 'A-1']);
    expect((await list('?per_page=1&page=2')).body).toMatchObject({ page: 2, total_pages: 2, controls: [{ identifier: 'B-1' }] });
    expect((await list('?search=alp')).body.controls.map((c: any) => c.identifier)).toEqual(['A-1']);
    expect((await list('?archived=true')).body.controls.map((c: any) => c.identifier)).toEqual(['C-1']);
    expect((await t.http().get(`/api/v2/controls/${other.name}?per_page=0`).set(...bearer(key))).status).toBe(400);
  });

  it('members read, only admins write; an org without the flag gets 403', async () => {
    const member = await addMember(t, org.name, 'member');
    expect((await as(member).get('/SDLC-1')).status).toBe(200);
    expect((await as(member).post('').send({ identifier: 'X', name: 'x' })).status).toBe(403);
    expect((await as(member).post('/SDLC-1/archive')).status).toBe(403);
    const off = await createOrg(t);
    expect((await t.http().get(`/api/v2/controls/${off.name}`).set(...bearer(off.adminKey))).status).toBe(403);
  });
});

describe('tags on controls', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp()));
  afterAll(() => t.close());

  it('PATCH /tags/{org}/control/{identifier} sets and removes tags; the control shows them and the list filters by them', async () => {
    const org = await createOrg(t, { features: ['controls'] });
    const as = (req: import('supertest').Test) => req.set(...bearer(org.adminKey));
    await as(t.http().post(`/api/v2/controls/${org.name}`)).send({ identifier: 'TAG-1', name: 'Tagged' }).expect(201);
    await as(t.http().post(`/api/v2/controls/${org.name}`)).send({ identifier: 'TAG-2', name: 'Untagged' }).expect(201);
    await as(t.http().patch(`/api/v2/tags/${org.name}/control/TAG-1`)).send({ set_tags: { framework: 'sdlc', tier: '1' } }).expect(200);
    await as(t.http().patch(`/api/v2/tags/${org.name}/controls/TAG-1`)).send({ remove_tags: ['tier'] }).expect(200);
    const control = await as(t.http().get(`/api/v2/controls/${org.name}/TAG-1`)).expect(200);
    expect(control.body.tags).toEqual({ framework: 'sdlc' });
    const listed = await as(t.http().get(`/api/v2/controls/${org.name}?tag=framework:sdlc`)).expect(200);
    expect(listed.body.controls.map((c: any) => c.identifier)).toEqual(['TAG-1']);
    expect((await as(t.http().patch(`/api/v2/tags/${org.name}/control/NOPE`)).send({ set_tags: { a: '1' } })).status).toBe(404);
  });

  it("tagging a control needs the org's controls flag, like the control routes: 403 once it is off, tags unchanged", async () => {
    const org = await createOrg(t, { features: ['controls'] });
    const as = (req: import('supertest').Test) => req.set(...bearer(org.adminKey));
    await as(t.http().post(`/api/v2/controls/${org.name}`)).send({ identifier: 'FLAG-1', name: 'Flagged' }).expect(201);
    await as(t.http().patch(`/api/v2/tags/${org.name}/control/FLAG-1`)).send({ set_tags: { a: '1' } }).expect(200);
    await t.http().patch(`/api/v2/admin/organizations/${org.name}`).set(...bearer(t.adminToken)).send({ features: [] }).expect(200);
    const refused = await as(t.http().patch(`/api/v2/tags/${org.name}/control/FLAG-1`)).send({ set_tags: { b: '2' } }).expect(403);
    expect(refused.body.message).toBe(`The beta feature 'controls' is not enabled for organization '${org.name}'`);
    // an unknown control is refused the same way: without the flag, no answer says which controls exist
    await as(t.http().patch(`/api/v2/tags/${org.name}/control/NOPE`)).send({ set_tags: { b: '2' } }).expect(403);
    await t.http().patch(`/api/v2/admin/organizations/${org.name}`).set(...bearer(t.adminToken)).send({ features: ['controls'] }).expect(200);
    expect((await as(t.http().get(`/api/v2/controls/${org.name}/FLAG-1`)).expect(200)).body.tags).toEqual({ a: '1' });
  });
});
