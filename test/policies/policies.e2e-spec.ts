import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

const V1 = '_schema: https://docs.kosli.com/schemas/policy/v1\n';

describe('environment policies: PUT /policies/{org}, GET /policies/{org}[/{name}]', () => {
  let t: TestApp;
  let org: TestOrg;

  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t, { features: ['controls'] });
  });
  afterAll(() => t.close());

  /** What `kosli create policy NAME FILE` sends. */
  const put = (payload: Record<string, unknown>, yaml: string | null) => {
    const req = t.http().put(`/api/v2/policies/${org.name}`).set(...bearer(org.adminKey)).field('payload', JSON.stringify(payload));
    return yaml === null ? req : req.attach('policy_file', Buffer.from(yaml), 'policy.yaml');
  };

  it('creates (201), keeps unchanged content (200, no version), versions changed content (200), lists them oldest first', async () => {
    const first = `${V1}artifacts:\n  provenance:\n    required: true\n`;
    const created = await put({ name: 'prod-requirements', description: 'prod', type: 'env', comment: '' }, first).expect(201);
    expect(created.body).toMatchObject({ name: 'prod-requirements', description: 'prod', archived: false, consuming_envs: [], versions: [{ version: 1, policy_yaml: first }] });
    await put({ name: 'prod-requirements', description: 'prod', type: 'env', comment: 'again' }, first).expect(200);
    const second = `${first}  attestations:\n    - name: unit-test\n      type: junit\n`;
    const updated = await put({ name: 'prod-requirements', description: 'prod', type: 'env', comment: 'tests' }, second).expect(200);
    expect(updated.body.versions.map((v: any) => [v.version, v.comment, v.policy_yaml])).toEqual([
      [1, '', first],
      [2, 'tests', second],
    ]);
    expect(updated.body.events.map((e: any) => e.type)).toEqual(['creation', 'new_version']);
    const got = await t.http().get(`/api/v2/policies/${org.name}/prod-requirements`).set(...bearer(org.adminKey)).expect(200);
    expect(got.body).toEqual(updated.body);
    const list = await t.http().get(`/api/v2/policies/${org.name}`).set(...bearer(org.adminKey)).expect(200);
    expect(list.body.map((p: any) => p.name)).toContain('prod-requirements');
    await t.http().get(`/api/v2/policies/${org.name}/nope`).set(...bearer(org.adminKey)).expect(404, { message: "Policy 'nope' not found", errors: null });
  });

  it('an optional payload field sent as null is as if it were not sent: a re-PUT keeps the description', async () => {
    const yaml = `${V1}artifacts:\n  provenance:\n    required: true\n`;
    await put({ name: 'nulls', description: null, comment: null, type: null }, yaml).expect(201);
    await put({ name: 'nulls', description: 'd' }, yaml).expect(200);
    const same = await put({ name: 'nulls', description: null, comment: null }, yaml).expect(200);
    expect(same.body).toMatchObject({ description: 'd', versions: [{ version: 1, comment: '' }] });
    const changed = await put({ name: 'nulls', description: null, comment: null }, `${yaml}  trail-compliance:\n    required: true\n`).expect(200);
    expect(changed.body).toMatchObject({ description: 'd', versions: [{ version: 1 }, { version: 2, comment: '' }] });
  });

  it('first PUTs of the same new policy at once: one creates it (201), the others update it (200), none is a 409', async () => {
    const yaml = `${V1}artifacts:\n  provenance:\n    required: true\n`;
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => put({ name: 'race', comment: `c${i}` }, i % 2 ? yaml : `${yaml}# ${i}\n`)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    const got = await t.http().get(`/api/v2/policies/${org.name}/race`).set(...bearer(org.adminKey)).expect(200);
    expect(got.body.versions.map((v: any) => v.version)).toEqual(got.body.versions.map((_: unknown, i: number) => i + 1));
  });

  it('every example policy of the format saves', async () => {
    const examples = [
      `${V1}artifacts:\n  provenance:\n    required: true\n  attestations:\n    - name: dependency-scan\n      type: "*"\n    - name: unit-test\n      type: junit\n`,
      `${V1}artifacts:\n  attestations:\n    - name: "*"\n      type: pull_request\n    - name: acceptance-test\n      type: "*"\n    - name: security-scan\n      type: snyk\n    - name: coverage-metrics\n      type: custom:my-coverage-metrics\n`,
      `${V1}\nartifacts:\n  provenance:\n    required: true\n    exceptions:\n      - if: \${{ matches(artifact.name, "^datadog:.*") }}\n  trail-compliance:\n    required: true\n    exceptions:\n      - if: \${{ matches(artifact.name, "^datadog:.*") }}\n  attestations:\n    - if: \${{ flow.tags.risk-level == "high" }}\n      name: unit-tests\n      type: junit\n`,
      `# yaml-language-server: $schema=https://docs.kosli.com/schemas/policy/v1.json\n${V1}\nartifacts:\n  provenance:\n    required: true\n    exceptions:\n      - if: \${{ matches(artifact.name, "^datadog:.*") }}\n  trail-compliance:\n    required: true\n  attestations:\n    - name: security-scan\n      type: snyk\n    - name: pull-request\n      type: pull_request\n      if: \${{ flow.tags.risk-level == "high" }}\n    - name: coverage\n      type: custom:coverage-metrics\n`,
      V1,
    ];
    for (const [i, yaml] of examples.entries()) await put({ name: `example-${i}` }, yaml).expect(201);
  });

  it('refuses what the format refuses, every error at its path, writing nothing', async () => {
    const bad = await put(
      { name: 'bad' },
      `_schema: https://docs.kosli.com/schemas/policy/v1\nartifacts:\n  provenance:\n    required: yes-please\n  colour: blue\n  attestations:\n    - name: x\n      type: gitlab\n    - name: "*"\n      type: "*"\n    - name: y\n      type: junit\n      if: \${{ flow.name == }}\n    - type: junit\n      for_control: C-1\n`,
    ).expect(400);
    expect(bad.body.errors).toEqual({
      'policy_file.artifacts.provenance.required': 'must be boolean',
      'policy_file.artifacts.colour': 'unknown field: it is not part of a version 1 policy',
      'policy_file.artifacts.attestations[0].type': 'must be one of generic, junit, snyk, pull_request, jira, sonar, decision, * or custom:<name>',
    });
    const rules = await put(
      { name: 'bad' },
      `${V1}artifacts:\n  attestations:\n    - name: "*"\n      type: "*"\n    - name: y\n      type: junit\n      if: \${{ flow.name == }}\n    - type: junit\n      for_control: C-1\n  provenance:\n    exceptions:\n      - if: \${{ matches(artifact.name, "(") }}\n`,
    ).expect(400);
    expect(rules.body.errors).toEqual({
      'policy_file.artifacts.attestations[0]': 'type and name cannot both be *: name an attestation or a type',
      'policy_file.artifacts.attestations[1].if': 'the expression ends where a value was expected (at column 18)',
      'policy_file.artifacts.attestations[2].for_control': 'is only valid with type decision',
      'policy_file.artifacts.provenance.exceptions[0].if': expect.stringMatching(/^invalid regular expression "\(".*\(at column 28\)$/),
    });
    expect((await put({ name: 'bad' }, '_schema: https://docs.kosli.com/schemas/policy/v2\n').expect(400)).body.errors).toEqual({
      'policy_file._schema': 'unknown major version v2: this server reads v1',
    });
    expect((await put({ name: 'bad' }, 'artifacts: {}\n').expect(400)).body.errors).toEqual({ 'policy_file._schema': 'is required' });
    expect((await put({ name: 'bad' }, '- a\n').expect(400)).body.errors).toEqual({ policy_file: 'must be a YAML mapping with _schema' });
    expect((await put({ name: 'bad' }, 'a: [\n').expect(400)).body.errors).toEqual({ policy_file: expect.stringContaining('is not valid YAML') });
    expect((await put({ name: 'bad' }, null).expect(400)).body.errors).toEqual({ policy_file: 'is required' });
    expect((await put({ name: '-bad' }, V1).expect(400)).body.errors).toEqual({ name: expect.stringContaining('must match') });
    expect((await put({ name: 'bad', type: 'trail' }, V1).expect(400)).body.errors).toEqual({ type: expect.any(String) });
    expect((await put({ name: 'bad', extra: 1 }, V1).expect(400)).body.errors).toEqual({ extra: 'unknown field: it is not part of this request' });
    await t.http().get(`/api/v2/policies/${org.name}/bad`).set(...bearer(org.adminKey)).expect(404);
  });

  it('a decision rule names a control that exists', async () => {
    const yaml = `${V1}artifacts:\n  attestations:\n    - type: decision\n      for_control: RCTL-043\n`;
    expect((await put({ name: 'controls' }, yaml).expect(400)).body.errors).toEqual({
      'policy_file.artifacts.attestations[0].for_control': "control 'RCTL-043' does not exist",
    });
    await t.http().post(`/api/v2/controls/${org.name}`).set(...bearer(org.adminKey)).send({ identifier: 'RCTL-043', name: 'Source code review' }).expect(201);
    await put({ name: 'controls' }, yaml).expect(201);
  });
});

describe('policies: the version history is bounded (VERSION_HISTORY_MAX_MB)', () => {
  let t: TestApp;
  let org: TestOrg;
  beforeAll(async () => {
    t = await startTestApp({ VERSION_HISTORY_MAX_MB: '1' });
    org = await createOrg(t);
  });
  afterAll(() => t.close());

  it('a version that would take the versions past the budget is a 413 and adds nothing', async () => {
    const yaml = (n: number) => `${V1}# ${n} ${'x'.repeat(400_000)}\nartifacts:\n  provenance:\n    required: true\n`;
    const put = (n: number) =>
      t.http().put(`/api/v2/policies/${org.name}`).set(...bearer(org.adminKey)).field('payload', JSON.stringify({ name: 'big' })).attach('policy_file', Buffer.from(yaml(n)), 'policy.yaml');
    await put(1).expect(201);
    await put(2).expect(200);
    const full = await put(3);
    expect([full.status, full.body.message]).toEqual([413, expect.stringMatching(/^The versions of policy 'big' would hold more than 1 MB together/)]);
    const got = await t.http().get(`/api/v2/policies/${org.name}/big`).set(...bearer(org.adminKey)).expect(200);
    expect(got.body.versions.map((v: any) => v.version)).toEqual([1, 2]);
    await put(2).expect(200);
  });
});
