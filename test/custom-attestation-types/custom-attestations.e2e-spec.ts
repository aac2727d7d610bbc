import { bearer, createOrg, TestOrg } from '../support/factories';
import { waitForBlockedBy } from '../support/locks';
import { startTestApp, TestApp, uniqueName } from '../support/test-app';

/** The CLI's `create attestation-type`: multipart data_json + optional type_schema file. */
function defineType(t: TestApp, key: string, org: string, data: unknown, schema?: unknown) {
  const req = t
    .http()
    .post(`/api/v2/custom-attestation-types/${org}`)
    .set(...bearer(key))
    .field('data_json', JSON.stringify(data));
  if (schema !== undefined) {
    req.attach('type_schema', Buffer.from(typeof schema === 'string' ? schema : JSON.stringify(schema)), { filename: 'schema.json', contentType: 'application/json' });
  }
  return req;
}

/** The CLI's `attest custom`: multipart data_json with type_name and attestation_data (+ attachment). */
function attestCustom(t: TestApp, key: string, org: string, flow: string, trail: string, data: unknown, attachment?: Buffer) {
  const req = t
    .http()
    .post(`/api/v2/attestations/${org}/${flow}/trail/${trail}/custom`)
    .set(...bearer(key))
    .field('data_json', JSON.stringify(data));
  if (attachment) req.attach('attachment_file', attachment, { filename: 'report.tgz', contentType: 'application/gzip' });
  return req;
}

const PERSON_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } },
  required: ['name', 'age'],
};

describe('custom attestation types and custom attestations', () => {
  let t: TestApp;
  let org: TestOrg;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    org = await createOrg(t);
  });

  async function slot(flow: string, trail: string, name: string) {
    const res = await t.http().get(`/api/v2/attestations/${org.name}/${flow}/trail/${trail}/${name}`).set(...bearer(org.adminKey));
    expect(res.status).toBe(200);
    return res.body[0];
  }

  it('creates a type, versions each change (not a repeat), lists, gets a version, archives', async () => {
    const first = await defineType(t, org.adminKey, org.name, { name: 'person', description: 'an adult', evaluator: { content_type: 'jq', rules: ['.age >= 18'] } }, PERSON_SCHEMA);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ name: 'person', description: 'an adult', org: org.name, archived: false, created_by: org.adminEmail });
    expect(first.body.versions).toEqual([
      expect.objectContaining({ version: 1, type_schema: PERSON_SCHEMA, evaluator: { content_type: 'jq', rules: ['.age >= 18'] }, summary: [], created_by: org.adminEmail }),
    ]);

    // The same definition again: no new version.
    const same = await defineType(t, org.adminKey, org.name, { name: 'person', description: 'an adult', evaluator: { content_type: 'jq', rules: ['.age >= 18'] } }, PERSON_SCHEMA);
    expect(same.status).toBe(201);
    expect(same.body.versions).toHaveLength(1);

    const changed = await defineType(t, org.adminKey, org.name, { name: 'person', description: 'a younger adult', evaluator: { content_type: 'jq', rules: ['.age >= 16'] } });
    expect(changed.body.versions.map((v: any) => v.version)).toEqual([1, 2]);
    expect(changed.body.versions[1]).toMatchObject({ type_schema: null, evaluator: { rules: ['.age >= 16'] } });
    expect(changed.body.description).toBe('a younger adult');

    await defineType(t, org.adminKey, org.name, { name: 'other' }).expect(201);
    const list = await t.http().get(`/api/v2/custom-attestation-types/${org.name}`).set(...bearer(org.adminKey)).expect(200);
    expect(list.body.map((x: any) => [x.name, x.versions.length])).toEqual([
      ['other', 1],
      ['person', 2],
    ]);
    expect(list.body[0].versions[0].evaluator).toEqual({ content_type: 'default' });

    const v1 = await t.http().get(`/api/v2/custom-attestation-types/${org.name}/person?version=1`).set(...bearer(org.adminKey)).expect(200);
    expect(v1.body.versions).toEqual([expect.objectContaining({ version: 1, evaluator: { content_type: 'jq', rules: ['.age >= 18'] } })]);
    await t.http().get(`/api/v2/custom-attestation-types/${org.name}/person?version=3`).set(...bearer(org.adminKey)).expect(404);
    const badVersion = await t.http().get(`/api/v2/custom-attestation-types/${org.name}/person?version=zero`).set(...bearer(org.adminKey));
    expect(badVersion.status).toBe(400);
    expect(Object.keys(badVersion.body.errors)).toEqual(['query.version']);
    await t.http().get(`/api/v2/custom-attestation-types/${org.name}/nobody`).set(...bearer(org.adminKey)).expect(404);

    const archived = await t.http().put(`/api/v2/custom-attestation-types/${org.name}/person/archive`).set(...bearer(org.adminKey)).expect(200);
    expect(archived.body).toMatchObject({ name: 'person', archived: true });
    expect(archived.body.versions).toHaveLength(2);
    const after = await t.http().get(`/api/v2/custom-attestation-types/${org.name}`).set(...bearer(org.adminKey)).expect(200);
    expect(after.body.map((x: any) => x.name)).toEqual(['other']);
    // Still readable by name, and attestations of it are refused.
    await t.http().get(`/api/v2/custom-attestation-types/${org.name}/person`).set(...bearer(org.adminKey)).expect(200);
    const refused = await attestCustom(t, org.adminKey, org.name, uniqueName('flow'), 't', { attestation_name: 'p', type_name: 'person', attestation_data: { age: 20, name: 'x' } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({ type_name: "custom attestation type 'person' is archived" });
    await t.http().put(`/api/v2/custom-attestation-types/${org.name}/nobody/archive`).set(...bearer(org.adminKey)).expect(404);
  });

  it('refuses a type that cannot judge: a schema that is not JSON or not a schema, a rule that does not compile', async () => {
    const notJson = await defineType(t, org.adminKey, org.name, { name: 'bad' }, '{ not json');
    expect(notJson.status).toBe(400);
    expect(notJson.body.errors).toEqual({ type_schema: 'is not valid JSON' });

    const notSchema = await defineType(t, org.adminKey, org.name, { name: 'bad' }, { type: 'whatever' });
    expect(notSchema.status).toBe(400);
    expect(notSchema.body.errors.type_schema).toMatch(/^is not a usable JSON Schema/);

    const badRule = await defineType(t, org.adminKey, org.name, { name: 'bad', evaluator: { content_type: 'jq', rules: ['.age > 1', '.age >'] }, summary: [{ name: 'Age', expression: '.age |' }] });
    expect(badRule.status).toBe(400);
    expect(Object.keys(badRule.body.errors).sort()).toEqual(['evaluator.rules[1]', 'summary[0].expression']);
    expect(badRule.body.errors['evaluator.rules[1]']).toMatch(/^does not compile: .*syntax error/);

    // What data_json may not hold, a schema may not either: nesting past the document limit, text jsonb refuses.
    const n = 200_000;
    const deep = await defineType(t, org.adminKey, org.name, { name: 'deep' }, '{"type":"object","x":' + '['.repeat(n) + ']'.repeat(n) + '}');
    expect(deep.status).toBe(400);
    expect(Object.entries(deep.body.errors)).toEqual([[expect.stringMatching(/^type_schema\.x(\[0\])+$/), expect.stringMatching(/^must not nest more than \d+ levels deep$/)]]);
    const nul = await defineType(t, org.adminKey, org.name, { name: 'nul' }, { type: 'object', description: 'a\u0000b' });
    expect([nul.status, nul.body.errors]).toEqual([400, { 'type_schema.description': expect.stringMatching(/^must not contain NUL/) }]);

    const badName = await defineType(t, org.adminKey, org.name, { name: '-bad', extra: 1 });
    expect(badName.status).toBe(400);
    expect(Object.keys(badName.body.errors).sort()).toEqual(['extra', 'name']);

    const list = await t.http().get(`/api/v2/custom-attestation-types/${org.name}`).set(...bearer(org.adminKey)).expect(200);
    expect(list.body).toEqual([]);
  });

  it('records compliant and non-compliant attestations judged by the schema and the jq rules, with their reasons', async () => {
    await defineType(
      t,
      org.adminKey,
      org.name,
      { name: 'person', evaluator: { content_type: 'jq', rules: ['.age >= 18', '.name | length > 0'] }, summary: [{ name: 'Age', expression: '.age' }] },
      PERSON_SCHEMA,
    ).expect(201);
    const flow = uniqueName('flow');

    const ok = await attestCustom(t, org.adminKey, org.name, flow, 't1', { attestation_name: 'adult', type_name: 'person', attestation_data: { name: 'Ann', age: 30 } }, Buffer.from('evidence'));
    expect(ok.status).toBe(201);
    const good = await slot(flow, 't1', 'adult');
    expect(good).toMatchObject({
      attestation_type: 'custom:person',
      is_compliant: true,
      type_name: 'person',
      type_version: 1,
      attestation_data: { name: 'Ann', age: 30 },
      summary: { Age: 30 },
      rule_results: [
        { rule: '.age >= 18', passed: true },
        { rule: '.name | length > 0', passed: true },
      ],
    });
    expect(good.compliance_reasons).toBeUndefined();
    expect(good.evidence).toMatchObject({ filename: 'report.tgz', size: 8 });

    // Even a client claiming compliance cannot: the rules decide.
    await attestCustom(t, org.adminKey, org.name, flow, 't1', { attestation_name: 'minor', type_name: 'person', attestation_data: { name: 'Bo', age: 12 } }).expect(201);
    const minor = await slot(flow, 't1', 'minor');
    expect(minor.is_compliant).toBe(false);
    expect(minor.compliance_reasons).toEqual(["rule '.age >= 18' is false"]);

    // A schema violation is recorded as non-compliant, with where the data breaks the schema.
    await attestCustom(t, org.adminKey, org.name, flow, 't1', { attestation_name: 'broken', type_name: 'person', attestation_data: { age: 'old' } }).expect(201);
    const broken = await slot(flow, 't1', 'broken');
    expect(broken.is_compliant).toBe(false);
    // jq orders a string after every number, so `.age >= 18` holds for "old": the schema is what catches it.
    expect(broken.compliance_reasons).toEqual([
      "attestation_data does not match the type's schema: / must have required property 'name'",
      "attestation_data does not match the type's schema: /age must be integer",
      "rule '.name | length > 0' is false",
    ]);

    const trail = await t.http().get(`/api/v2/trails/${org.name}/${flow}/t1`).set(...bearer(org.adminKey)).expect(200);
    expect(trail.body.compliance_status.is_compliant).toBe(false);
  });

  it('a rule that errors, yields no boolean, or loops makes the attestation non-compliant with the reason, never a 500', async () => {
    await defineType(t, org.adminKey, org.name, {
      name: 'tricky',
      evaluator: { content_type: 'jq', rules: ['.items[] | .ok', '.count', '.count | error("count is \\(.)")'] },
    }).expect(201);
    await defineType(t, org.adminKey, org.name, { name: 'looping', evaluator: { content_type: 'jq', rules: ['true', 'def f: f; f'] } }).expect(201);
    const flow = uniqueName('flow');

    await attestCustom(t, org.adminKey, org.name, flow, 't', { attestation_name: 'tricky', type_name: 'tricky', attestation_data: { items: [{ ok: true }, { ok: true }], count: 2 } }).expect(201);
    const tricky = await slot(flow, 't', 'tricky');
    expect(tricky.is_compliant).toBe(false);
    expect(tricky.compliance_reasons).toEqual([
      "rule '.items[] | .ok' yielded 2 values, expected one boolean",
      "rule '.count' yielded 2, not a boolean",
      'rule \'.count | error("count is \\(.)")\' failed: count is 2',
    ]);

    const looping = await attestCustom(t, org.adminKey, org.name, flow, 't', { attestation_name: 'loop', type_name: 'looping', attestation_data: {} });
    expect(looping.status).toBe(201);
    const loop = await slot(flow, 't', 'loop');
    expect(loop.is_compliant).toBe(false);
    expect(loop.compliance_reasons).toEqual([expect.stringMatching(/^the type's rules could not be evaluated: the rules ran longer than \d+ ms and were stopped$/)]);

    // The service goes on judging after a stopped rule.
    await attestCustom(t, org.adminKey, org.name, flow, 't', { attestation_name: 'after', type_name: 'tricky', attestation_data: { items: [{ ok: true }], count: true } }).expect(201);
    const after = await slot(flow, 't', 'after');
    expect(after.rule_results.map((r: any) => r.passed)).toEqual([true, true, false]);
  });

  it('an attestation whose type is archived after its first check and before its write is refused (400) and not stored', async () => {
    await defineType(t, org.adminKey, org.name, { name: 'archived-late', evaluator: { content_type: 'jq', rules: ['.ok'] } }).expect(201);
    const flow = uniqueName('flow');
    // The type's row held as an archive holds it, not committed: the attestation's first check (a plain read) and
    // its rules go by; its write waits for the row. The archive then commits.
    const runner = t.dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      await runner.query(`SELECT 1 FROM custom_attestation_types WHERE name = 'archived-late' AND org_id = (SELECT id FROM organizations WHERE name = $1) FOR UPDATE`, [org.name]);
      const [{ pid }] = await runner.query(`SELECT pg_backend_pid() AS pid`);
      const pending = attestCustom(t, org.adminKey, org.name, flow, 't', { attestation_name: 'late', type_name: 'archived-late', attestation_data: { ok: true } }).then((r) => r);
      await waitForBlockedBy(t.dataSource, pid, 1, 'the attestation waiting for its type');
      await runner.query(`UPDATE custom_attestation_types SET archived = true WHERE name = 'archived-late' AND org_id = (SELECT id FROM organizations WHERE name = $1)`, [org.name]);
      await runner.commitTransaction();
      const res = await pending;
      expect([res.status, res.body.errors]).toEqual([400, { type_name: "custom attestation type 'archived-late' is archived" }]);
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    }
    const [row] = await t.dataSource.query(`SELECT count(*)::int AS n FROM flows f JOIN organizations o ON o.id = f.org_id WHERE o.name = $1 AND f.name = $2`, [org.name, flow]);
    expect(row.n).toBe(0);
  });

  it('refuses an attestation of a type the org does not have, or without its data, and stores nothing', async () => {
    const flow = uniqueName('flow');
    const unknown = await attestCustom(t, org.adminKey, org.name, flow, 't', { attestation_name: 'x', type_name: 'nothing', attestation_data: {} });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual({ type_name: "custom attestation type 'nothing' does not exist in this organization" });
    await defineType(t, org.adminKey, org.name, { name: 'any' }).expect(201);
    const noData = await attestCustom(t, org.adminKey, org.name, flow, 't', { attestation_name: 'x', type_name: 'any' });
    expect(noData.status).toBe(400);
    expect(Object.keys(noData.body.errors)).toEqual(['attestation_data']);
    const [row] = await t.dataSource.query(`SELECT count(*)::int AS n FROM flows f JOIN organizations o ON o.id = f.org_id WHERE o.name = $1`, [org.name]);
    expect(row.n).toBe(0);

    // Types are per org.
    const other = await createOrg(t);
    const elsewhere = await attestCustom(t, other.adminKey, other.name, flow, 't', { attestation_name: 'x', type_name: 'any', attestation_data: {} });
    expect(elsewhere.status).toBe(400);
  });
});

describe('custom attestation types: the version history is bounded (VERSION_HISTORY_MAX_MB)', () => {
  let t: TestApp;
  let org: TestOrg;
  beforeAll(async () => {
    t = await startTestApp({ VERSION_HISTORY_MAX_MB: '1' });
    org = await createOrg(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a version that would take the versions past the budget is a 413 and adds nothing; the type stays readable', async () => {
    const schema = (n: number) => ({ type: 'object', description: `${n}:${'x'.repeat(400_000)}` });
    await defineType(t, org.adminKey, org.name, { name: 'big' }, schema(1)).expect(201);
    await defineType(t, org.adminKey, org.name, { name: 'big' }, schema(2)).expect(201);
    const full = await defineType(t, org.adminKey, org.name, { name: 'big' }, schema(3));
    expect([full.status, full.body.message]).toEqual([413, expect.stringMatching(/^The versions of custom attestation type 'big' would hold more than 1 MB together/)]);
    const got = await t.http().get(`/api/v2/custom-attestation-types/${org.name}/big`).set(...bearer(org.adminKey)).expect(200);
    expect(got.body.versions.map((v: any) => v.version)).toEqual([1, 2]);
    // The same definition again is no new version, so it is not refused.
    await defineType(t, org.adminKey, org.name, { name: 'big' }, schema(2)).expect(201);
  });
});
