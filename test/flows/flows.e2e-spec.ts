import { addMember, bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp, uniqueName } from '../support/test-app';

const TEMPLATE = `version: 1
trail:
  attestations:
    - name: pull-request
      type: pull_request
  artifacts:
    - name: backend
      attestations:
        - name: unit-test
          type: junit
`;

describe('flows', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const putFlow = (org: TestOrg, body: unknown) =>
    t.http().put(`/api/v2/flows/${org.name}`).set(...bearer(org.adminKey)).send(body as object);
  const putFlowWithTemplate = (org: TestOrg, data: unknown, template?: string) => {
    const req = t
      .http()
      .put(`/api/v2/flows/${org.name}/template_file`)
      .set(...bearer(org.adminKey))
      .field('data_json', typeof data === 'string' ? data : JSON.stringify(data));
    return template === undefined ? req : req.attach('template_file', Buffer.from(template), 'template.yml');
  };

  it('PUT /flows/{org} creates (201) then updates (200) only the fields sent', async () => {
    const org = await createOrg(t);
    const created = await putFlow(org, { name: 'app', description: 'first', visibility: 'private', template: ['artifact'] });
    expect(created.status).toBe(201);
    expect(typeof created.body).toBe('string');
    const updated = await putFlow(org, { name: 'app', visibility: 'public', description: null, repo_url: null });
    expect(updated.status).toBe(200);
    const got = await t.http().get(`/api/v2/flows/${org.name}/app`).set(...bearer(org.adminKey)).expect(200);
    expect(got.body).toMatchObject({ name: 'app', description: 'first', visibility: 'public', org: org.name, template: null, tags: {} });
    expect(typeof got.body.created_at).toBe('number');
  });

  it('PUT /flows/{org}/template_file stores a template version; the same file again keeps it', async () => {
    const org = await createOrg(t);
    await putFlowWithTemplate(org, { name: 'tmpl', description: 'd', visibility: 'private' }, TEMPLATE).expect(201);
    const first = await t.http().get(`/api/v2/flows/${org.name}/tmpl`).set(...bearer(org.adminKey)).expect(200);
    expect(first.body.template).toEqual({
      version: 1,
      trail: {
        attestations: [{ name: 'pull-request', type: 'pull_request' }],
        artifacts: [{ name: 'backend', attestations: [{ name: 'unit-test', type: 'junit' }] }],
      },
    });
    expect(first.body.template_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.body.template_version).toBe(1);

    await putFlowWithTemplate(org, { name: 'tmpl', description: 'd', visibility: 'private' }, TEMPLATE).expect(200);
    const same = await t.http().get(`/api/v2/flows/${org.name}/tmpl`).set(...bearer(org.adminKey)).expect(200);
    expect(same.body.template_id).toBe(first.body.template_id);

    await putFlowWithTemplate(org, { name: 'tmpl' }, 'version: 1\n').expect(200);
    const changed = await t.http().get(`/api/v2/flows/${org.name}/tmpl`).set(...bearer(org.adminKey)).expect(200);
    expect(changed.body.template_id).not.toBe(first.body.template_id);
    expect(changed.body.template_version).toBe(2);
    expect(changed.body.template).toEqual({ version: 1, trail: { attestations: [], artifacts: [] } });
    expect(changed.body.description).toBe('d');

    // data_json alone (no file) updates the flow and keeps the template
    await putFlowWithTemplate(org, { name: 'tmpl', description: 'new' }).expect(200);
    const kept = await t.http().get(`/api/v2/flows/${org.name}/tmpl`).set(...bearer(org.adminKey)).expect(200);
    expect(kept.body).toMatchObject({ description: 'new', template_id: changed.body.template_id });
  });

  it('rejects an invalid template with field-level errors and writes nothing', async () => {
    const org = await createOrg(t);
    const res = await putFlowWithTemplate(
      org,
      { name: 'bad', description: '', visibility: 'private' },
      'version: 2\ntrail:\n  attestations:\n    - name: x\n      kind: generic\n',
    ).expect(400);
    expect(res.body).toEqual({
      message: 'Invalid flow template',
      errors: {
        'template_file.version': 'must be 1',
        'template_file.trail.attestations[0].type': 'is required',
        'template_file.trail.attestations[0].kind': 'unknown field: it is not part of a version 1 template',
      },
    });
    // Names in a template are at most 256 characters, like every name (docs/choices.md).
    const long = 'a'.repeat(300);
    const tooLong = await putFlowWithTemplate(
      org,
      { name: 'bad' },
      `version: 1\ntrail:\n  attestations:\n    - name: ${long}\n      type: generic\n  artifacts:\n    - name: ${long}\n      attestations: []\n`,
    ).expect(400);
    expect(tooLong.body.errors).toEqual({
      'template_file.trail.attestations[0].name': 'must be shorter than or equal to 256 characters',
      'template_file.trail.artifacts[0].name': 'must be shorter than or equal to 256 characters',
    });
    const yaml = await putFlowWithTemplate(org, { name: 'bad' }, 'version: [1\n').expect(400);
    expect(yaml.body.errors.template_file).toMatch(/not valid YAML/);
    await t.http().get(`/api/v2/flows/${org.name}/bad`).set(...bearer(org.adminKey)).expect(404);
  });

  it('validates the body: unknown fields, name pattern, visibility, data_json', async () => {
    const org = await createOrg(t);
    const res = await putFlow(org, { name: '-bad', visibility: 'secret', colour: 'red' }).expect(400);
    expect(res.body.message).toBe('Input payload validation failed');
    expect(Object.keys(res.body.errors).sort()).toEqual(['colour', 'name', 'visibility']);

    const missing = await t
      .http()
      .put(`/api/v2/flows/${org.name}/template_file`)
      .set(...bearer(org.adminKey))
      .attach('template_file', Buffer.from('version: 1'), 't.yml')
      .expect(400);
    expect(missing.body.errors).toEqual({ data_json: 'is required' });
    const badJson = await putFlowWithTemplate(org, '{not json').expect(400);
    expect(badJson.body.errors).toEqual({ data_json: 'is not valid JSON' });
    const unknownPart = await t
      .http()
      .put(`/api/v2/flows/${org.name}/template_file`)
      .set(...bearer(org.adminKey))
      .field('data_json', JSON.stringify({ name: 'x' }))
      .attach('other_file', Buffer.from('x'), 'x.txt')
      .expect(400);
    expect(unknownPart.body.errors).toEqual({ other_file: 'unknown file part: only template_file is accepted' });
    const noName = await putFlowWithTemplate(org, { description: 'x' }).expect(400);
    expect(noName.body.errors).toEqual({ name: 'is required' });
    // data_json is validated like a JSON body: unknown fields at their path, even those named like Object members.
    const unknown = await putFlowWithTemplate(org, JSON.parse('{"name": "x", "colour": {"red": 1}, "constructor": {"x": 1}}')).expect(400);
    expect(unknown.body.errors).toEqual({
      colour: 'unknown field: it is not part of this request',
      constructor: 'unknown field: it is not part of this request',
    });
    const notObject = await putFlowWithTemplate(org, 'null').expect(400);
    expect(notObject.body.errors).toEqual({ data_json: 'must be a JSON object' });
    await t.http().get(`/api/v2/flows/${org.name}/x`).set(...bearer(org.adminKey)).expect(404);
  });

  it('413 for a template file over 10 MB; nothing is created', async () => {
    const org = await createOrg(t);
    const res = await putFlowWithTemplate(org, { name: 'big' }, 'version: 1\n' + '#'.repeat(10 * 1024 * 1024)).expect(413);
    expect(res.body).toEqual({ message: 'The template file is larger than 10485760 bytes', errors: null });
    await t.http().get(`/api/v2/flows/${org.name}/big`).set(...bearer(org.adminKey)).expect(404);
  });

  it('GET /flows/{org}: plain array, or the envelope with per_page', async () => {
    const org = await createOrg(t);
    const empty = await t.http().get(`/api/v2/flows/${org.name}?per_page=2`).set(...bearer(org.adminKey)).expect(200);
    expect(empty.body.data).toEqual([]);
    expect(empty.body.pagination).toEqual({ total: 0, page: 1, per_page: 2, page_count: 1 });
    for (const name of ['c-flow', 'a-flow', 'b-flow']) await putFlow(org, { name }).expect(201);
    const all = await t.http().get(`/api/v2/flows/${org.name}`).set(...bearer(org.adminKey)).expect(200);
    expect(all.body.map((f: any) => f.name)).toEqual(['a-flow', 'b-flow', 'c-flow']);
    expect(all.body.every((f: any) => typeof f.tags === 'object' && f.tags !== null)).toBe(true);

    const page2 = await t.http().get(`/api/v2/flows/${org.name}?per_page=2&page=2`).set(...bearer(org.adminKey)).expect(200);
    expect(page2.body.data.map((f: any) => f.name)).toEqual(['c-flow']);
    expect(page2.body.pagination).toEqual({ total: 3, page: 2, per_page: 2, page_count: 2 });
    expect(page2.body._links.next).toBeNull();
    expect(page2.body._links.prev).toContain('page=1');
    const past = await t.http().get(`/api/v2/flows/${org.name}?per_page=2&page=5`).set(...bearer(org.adminKey)).expect(200);
    expect(past.body.data).toEqual([]);

    const search = await t.http().get(`/api/v2/flows/${org.name}?search_by_name=B-FL&case_sensitive=false`).set(...bearer(org.adminKey)).expect(200);
    expect(search.body.map((f: any) => f.name)).toEqual(['b-flow']);

    const bad = await t.http().get(`/api/v2/flows/${org.name}?per_page=101`).set(...bearer(org.adminKey)).expect(400);
    expect(bad.body.errors).toHaveProperty(['query.per_page']);
  });

  it('GET /flows/{org}/{flow} is 404 for an unknown flow; readers may read, not write', async () => {
    const org = await createOrg(t);
    const res = await t.http().get(`/api/v2/flows/${org.name}/nope`).set(...bearer(org.adminKey)).expect(404);
    expect(res.body).toEqual({ message: "Flow 'nope' not found", errors: null });
    const reader = await addMember(t, org.name, 'reader');
    await t.http().put(`/api/v2/flows/${org.name}`).set(...bearer(reader)).send({ name: uniqueName('f') }).expect(403);
    await t.http().get(`/api/v2/flows/${org.name}`).set(...bearer(reader)).expect(200);
  });
});
