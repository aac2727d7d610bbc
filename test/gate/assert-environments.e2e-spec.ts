import { addMember, bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { digest, envApi, pod } from '../support/env-helpers';

const V1 = '_schema: https://docs.kosli.com/schemas/policy/v1\n';
const STRICT = `${V1}artifacts:\n  provenance:\n    required: true\n  trail-compliance:\n    required: true\n  attestations:\n    - name: unit-test\n      type: generic\n`;
const LENIENT = `${V1}artifacts:\n  provenance:\n    required: true\n`;

/** What the per-environment assertion concludes, without the artifact's trails (shared by every environment). */
const verdict = (a: any) => ({ scope: a.scope, compliant: a.compliant, policy_evaluations: a.policy_evaluations, allow_listing: a.allow_listing, reasons: a.reasons });
/** The trails as both answers show them; `evaluated_at` is the time of each request. */
const trailsOf = (a: any) => ({
  fingerprint: a.fingerprint,
  flow: a.flow,
  trail: a.trail,
  html_url: a.html_url,
  flows: a.flows.map((f: any) => ({ ...f, compliance_status: { ...f.compliance_status, evaluated_at: 0 } })),
});

/**
 * `GET /asserts/{org}/fingerprint/{fingerprint}/environments`: the gate's answer in every environment at once
 * (the artifact page's one request) is, environment by environment, what `?environment_name=` answers. Evidence:
 * flow `runner` with trail t1 holding `web` (a passing unit test) and t2 holding `api` (a failing one).
 * Environments: none attached, strict, strict again (same policy), strict with `api` allow-listed, lenient
 * (provenance only), both policies, a logical one, and an archived one (left out).
 */
describe('the gate across environments', () => {
  let t: TestApp;
  let org: TestOrg;
  const WEB = digest('bulk-web');
  const API = digest('bulk-api');
  const as = <T extends { set: (k: string, v: string) => T }>(req: T, key = org.adminKey) => req.set(...bearer(key));
  const one = (fingerprint: string, envName: string) => as(t.http().get(`/api/v2/asserts/${org.name}/fingerprint/${fingerprint}`)).query({ environment_name: envName });
  const all = (fingerprint: string, query: Record<string, string> = {}, key = org.adminKey, orgName = org.name) =>
    as(t.http().get(`/api/v2/asserts/${orgName}/fingerprint/${fingerprint}/environments`), key).query(query);

  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t);
    const env = envApi(t, org);
    await as(t.http().put(`/api/v2/flows/${org.name}`)).send({ name: 'runner', description: '', visibility: 'private' }).expect(201);
    for (const [trail, name, fingerprint, compliant] of [
      ['t1', 'web', WEB, true],
      ['t2', 'api', API, false],
    ] as const) {
      await as(t.http().put(`/api/v2/trails/${org.name}/runner`)).field('data_json', JSON.stringify({ name: trail })).expect(201);
      await as(t.http().post(`/api/v2/artifacts/${org.name}/runner`)).send({ fingerprint, filename: name, trail_name: trail, template_reference_name: name }).expect(201);
      await as(t.http().post(`/api/v2/attestations/${org.name}/runner/trail/${trail}/generic`))
        .field('data_json', JSON.stringify({ attestation_name: 'unit-test', is_compliant: compliant, artifact_fingerprint: fingerprint }))
        .expect(201);
    }
    for (const [name, yaml] of [
      ['strict', STRICT],
      ['lenient', LENIENT],
    ]) {
      await as(t.http().put(`/api/v2/policies/${org.name}`))
        .field('payload', JSON.stringify({ name, description: '', type: 'env', comment: '' }))
        .attach('policy_file', Buffer.from(yaml), 'p.yaml')
        .expect(201);
    }
    const attached: Record<string, string[]> = { bare: [], strict: ['strict'], 'strict-2': ['strict'], 'strict-allowed': ['strict'], lenient: ['lenient'], both: ['lenient', 'strict'], old: ['strict'] };
    for (const [name, policies] of Object.entries(attached)) {
      await env.create({ name, type: 'K8S', description: '' }).expect(201);
      await env.report(name, 'K8S', { artifacts: [pod('web-1', { web: WEB }), pod('api-1', { api: API })] }).expect(201);
      if (policies.length) await as(t.http().post(`/api/v2/environments/${org.name}/${name}/policies`)).send({ policy_names: policies }).expect(200);
    }
    await as(t.http().put(`/api/v2/allowlists/${org.name}/strict-allowed`)).send({ artifact_name: 'api', artifact_fingerprint: API, description: 'hotfix, approved by CAB-7' }).expect(201);
    await env.create({ name: 'everything', type: 'logical', description: '' }).expect(201);
    await as(t.http().put(`/api/v2/environments/${org.name}/old/archive`)).expect(200);
  });
  afterAll(() => t.close());

  it('answers, environment by environment, what the assertion with environment_name answers; archived environments are left out', async () => {
    for (const fingerprint of [WEB, API]) {
      const res = await all(fingerprint).expect(200);
      expect(res.body.environments.map((e: any) => [e.environment_name, e.environment_type])).toEqual([
        ['bare', 'K8S'],
        ['both', 'K8S'],
        ['everything', 'logical'],
        ['lenient', 'K8S'],
        ['strict', 'K8S'],
        ['strict-2', 'K8S'],
        ['strict-allowed', 'K8S'],
      ]);
      for (const entry of res.body.environments) {
        const single = (await one(fingerprint, entry.environment_name).expect(200)).body;
        expect([entry.environment_name, verdict(entry)]).toEqual([entry.environment_name, verdict(single)]);
        expect(trailsOf(res.body)).toEqual(trailsOf(single));
      }
    }
  });

  it('the answers differ as the environments do: no policy (the flows), a policy, an allow-listing, a lenient policy', async () => {
    const byName = (body: any) => Object.fromEntries(body.environments.map((e: any) => [e.environment_name, e]));
    const api = byName((await all(API).expect(200)).body);
    expect(api.bare).toMatchObject({ scope: 'flow', compliant: false, policy_evaluations: null, reasons: ["trail 't2' of flow 'runner' is NON-COMPLIANT"] });
    expect(api.everything).toMatchObject({ scope: 'flow', compliant: false });
    expect(api.strict).toMatchObject({ scope: 'environment', compliant: false, allow_listing: null });
    expect(api.strict.policy_evaluations.map((p: any) => [p.policy_name, p.status])).toEqual([['strict', 'NON-COMPLIANT']]);
    expect(api.strict.reasons.length).toBeGreaterThan(0);
    expect(api['strict-2']).toMatchObject({ scope: 'environment', compliant: false, reasons: api.strict.reasons });
    expect(api['strict-allowed']).toMatchObject({
      scope: 'environment',
      compliant: true,
      allow_listing: { allowlist_id: `strict-allowed/${API}`, allowed_by_user_id: org.adminEmail, description: 'hotfix, approved by CAB-7' },
    });
    expect(api.lenient).toMatchObject({ scope: 'environment', compliant: true, reasons: [] });
    expect(api.both).toMatchObject({ scope: 'environment', compliant: false });
    expect(api.both.policy_evaluations.map((p: any) => [p.policy_name, p.status])).toEqual([
      ['lenient', 'COMPLIANT'],
      ['strict', 'NON-COMPLIANT'],
    ]);
    const web = byName((await all(WEB).expect(200)).body);
    expect(Object.values(web).map((e: any) => [e.environment_name, e.compliant])).toEqual(Object.keys(web).map((name) => [name, true]));
  });

  it('flow_name narrows the trails; an artifact no trail reported is 404; a malformed fingerprint or an unknown field is 400', async () => {
    expect((await all(API, { flow_name: 'runner' }).expect(200)).body.flows.map((f: any) => f.trail)).toEqual(['t2']);
    const elsewhere = await all(API, { flow_name: 'other' }).expect(404);
    expect(elsewhere.body).toEqual({ message: `Artifact with fingerprint '${API}' not found in flow 'other'`, errors: null });
    const unknown = digest('never-reported');
    expect((await all(unknown).expect(404)).body).toEqual({ message: `Artifact with fingerprint '${unknown}' not found`, errors: null });
    const bad = await all('abc').expect(400);
    expect(bad.body.errors).toHaveProperty(['path.fingerprint']);
    const field = await all(API, { environment_name: 'strict' }).expect(400);
    expect(field.body.errors).toHaveProperty(['query.environment_name']);
  });

  it("a reader may ask; another org's key is refused, and that org sees none of this artifact", async () => {
    const reader = await addMember(t, org.name, 'reader');
    expect((await all(API, {}, reader).expect(200)).body.environments).toHaveLength(7);
    const other = await createOrg(t);
    const refused = await all(API, {}, other.adminKey).expect(403);
    expect(refused.body).toEqual({ message: expect.any(String), errors: null });
    expect(JSON.stringify(refused.body)).not.toContain('strict');
    await all(API, {}, other.adminKey, other.name).expect(404);
  });
});
