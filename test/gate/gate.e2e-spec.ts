import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { digest, envApi, pod } from '../support/env-helpers';

const V1 = '_schema: https://docs.kosli.com/schemas/policy/v1\n';
/** The reference's example policy, with its pull-request rule on this server's generic type for the unit test. */
const PROD_POLICY = `${V1}
artifacts:
  provenance:
    required: true
    exceptions:
      - if: \${{ matches(artifact.name, "^datadog:.*") }}
  trail-compliance:
    required: true
    exceptions:
      - if: \${{ matches(artifact.name, "^datadog:.*") }}
  attestations:
    - name: unit-test
      type: generic
      if: \${{ not matches(artifact.name, "^datadog:.*") }}
    - name: pull-request
      type: pull_request
      if: \${{ flow.tags.risk-level == "high" }}
`;

/**
 * The gate end to end: policies judge snapshots once attached (and stop when detached), allow-lists, assert
 * artifact in its three scopes. Evidence: flow `runner` (risk-level high) with trail t1 holding `web` and a
 * compliant unit test, trail t2 holding `api` with a failing one; `datadog:agent` has no provenance.
 */
describe('the deployment gate', () => {
  let t: TestApp;
  let org: TestOrg;
  let env: ReturnType<typeof envApi>;
  const WEB = digest('gate-web');
  const API = digest('gate-api');
  const DOG = digest('gate-datadog');
  const as = <T extends { set: (k: string, v: string) => T }>(req: T) => req.set(...bearer(org.adminKey));
  const putPolicy = (name: string, yaml: string) =>
    as(t.http().put(`/api/v2/policies/${org.name}`)).field('payload', JSON.stringify({ name, description: '', type: 'env', comment: '' })).attach('policy_file', Buffer.from(yaml), 'p.yaml');
  const attach = (envName: string, names: string[]) => as(t.http().post(`/api/v2/environments/${org.name}/${envName}/policies`)).send({ policy_names: names });
  const detach = (envName: string, names: string[]) => as(t.http().delete(`/api/v2/environments/${org.name}/${envName}/policies`)).send({ policy_names: names });
  const assert = (fingerprint: string, query: Record<string, string | string[]> = {}) =>
    as(t.http().get(`/api/v2/asserts/${org.name}/fingerprint/${fingerprint}`)).query(query);
  const byName = (snapshot: any, name: string) => snapshot.artifacts.find((a: any) => a.name === name);

  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t, { features: ['controls'] });
    env = envApi(t, org);
    await as(t.http().put(`/api/v2/flows/${org.name}`)).send({ name: 'runner', description: '', visibility: 'private' }).expect(201);
    await as(t.http().patch(`/api/v2/tags/${org.name}/flow/runner`)).send({ set_tags: { 'risk-level': 'high' } }).expect(200);
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
    await env.create({ name: 'prod', type: 'K8S', description: '' }).expect(201);
    await env.report('prod', 'K8S', { artifacts: [pod('web-1', { web: WEB }), pod('api-1', { api: API }), pod('dd-1', { 'datadog:agent': DOG })] }).expect(201);
    await putPolicy('prod-requirements', PROD_POLICY).expect(201);
  });
  afterAll(() => t.close());

  it('without policies an environment keeps the rule of old: every trail compliant; applied_policies is []', async () => {
    const s1 = (await env.snapshot('prod', '1').expect(200)).body;
    expect(s1.applied_policies).toEqual([]);
    expect(s1.compliant).toBe(false);
    expect(byName(s1, 'web')).toMatchObject({ compliant: true, policy_decisions: [] });
    expect(byName(s1, 'api')).toMatchObject({ compliant: false, reasons_for_incompliance: ["trail 't2' of flow 'runner' is NON-COMPLIANT"] });
    expect(byName(s1, 'datadog:agent')).toMatchObject({ compliant: true, has_provenance: false });
  });

  it('attaching judges the latest snapshot again as a new snapshot, with each artifact decision and its reasons', async () => {
    const res = await attach('prod', ['prod-requirements']).expect(200);
    expect(res.body).toEqual({ environment: 'prod', policies: ['prod-requirements'], snapshot: 2 });
    expect((await env.get('prod').expect(200)).body.policies).toEqual(['prod-requirements']);
    const s2 = (await env.snapshot('prod', '2').expect(200)).body;
    expect(s2.applied_policies).toEqual([{ name: 'prod-requirements', version: 1 }]);
    expect(s2.compliant).toBe(false);
    expect(byName(s2, 'web').reasons_for_incompliance).toEqual([
      "policy 'prod-requirements' v1: missing attestation 'pull-request' of type 'pull_request' in trail 't1' of flow 'runner'",
    ]);
    expect(byName(s2, 'api').reasons_for_incompliance).toEqual([
      "policy 'prod-requirements' v1: trail 't2' of flow 'runner' is NON-COMPLIANT",
      "policy 'prod-requirements' v1: attestation 'unit-test' of type 'generic' is not compliant in trail 't2' of flow 'runner'",
      "policy 'prod-requirements' v1: missing attestation 'pull-request' of type 'pull_request' in trail 't2' of flow 'runner'",
    ]);
    const dog = byName(s2, 'datadog:agent');
    expect(dog).toMatchObject({ compliant: true, reasons_for_incompliance: [] });
    expect(dog.policy_decisions[0].rule_evaluations.map((r: any) => [r.rule.type, r.ignored, r.satisfied])).toEqual([
      ['provenance', true, null],
      ['trail-compliance', true, null],
      ['attestation', true, null],
      ['attestation', true, null],
    ]);
    // A past snapshot's compliance never changes.
    expect((await env.snapshot('prod', '1').expect(200)).body.applied_policies).toEqual([]);
    // A report of the same content makes no snapshot; a changed one is judged by the policy.
    await env.report('prod', 'K8S', { artifacts: [pod('web-1', { web: WEB }), pod('api-1', { api: API }), pod('dd-1', { 'datadog:agent': DOG })] }).expect(200);
    await env.report('prod', 'K8S', { artifacts: [pod('web-1', { web: WEB }), pod('dd-1', { 'datadog:agent': DOG })] }).expect(201);
    const s3 = (await env.snapshot('prod', 'latest').expect(200)).body;
    expect([s3.index, s3.compliant, s3.applied_policies]).toEqual([3, false, [{ name: 'prod-requirements', version: 1 }]]);
  });

  it('an allow-listed artifact counts as compliant in that environment, shown in its decision', async () => {
    const put = await as(t.http().put(`/api/v2/allowlists/${org.name}/prod`)).send({ artifact_name: 'web', artifact_fingerprint: WEB, description: 'hotfix, reviewed by hand' }).expect(201);
    expect(put.body).toEqual({ artifact_name: 'web', artifact_fingerprint: WEB, description: 'hotfix, reviewed by hand' });
    const s4 = (await env.snapshot('prod', 'latest').expect(200)).body;
    expect([s4.index, s4.compliant]).toEqual([4, true]);
    expect(byName(s4, 'web')).toMatchObject({ compliant: true, allow_listing: { fingerprint: WEB, description: 'hotfix, reviewed by hand', user_name: org.adminEmail } });
    expect(byName(s4, 'web').reasons_for_incompliance.at(-1)).toBe(`allowed in this environment by ${org.adminEmail}: hotfix, reviewed by hand`);
    const list = await as(t.http().get(`/api/v2/allowlists/${org.name}`)).expect(200);
    expect(list.body).toEqual([
      { artifact_name: 'web', fingerprint: WEB, environment_name: 'prod', description: 'hotfix, reviewed by hand', user_name: org.adminEmail, timestamp: expect.any(Number) },
    ]);
    await as(t.http().put(`/api/v2/allowlists/${org.name}/nowhere`)).send({ artifact_name: 'web', artifact_fingerprint: WEB, description: 'x' }).expect(404);
    expect((await as(t.http().put(`/api/v2/allowlists/${org.name}/prod`)).send({ artifact_name: 'web', artifact_fingerprint: 'x', description: 'x' }).expect(400)).body.errors).toEqual({
      artifact_fingerprint: 'must be 64 lowercase hex characters (sha256)',
    });
  });

  it('assert artifact: against an environment, named policies, or the flows; 404s and 400 as documented', async () => {
    const inEnv = (await assert(WEB, { environment_name: 'prod' }).expect(200)).body;
    expect(inEnv).toMatchObject({ fingerprint: WEB, flow: 'runner', trail: 't1', scope: 'environment', environment: 'prod', compliant: true });
    expect(inEnv.allow_listing).toMatchObject({ allowed_by_user_id: org.adminEmail, description: 'hotfix, reviewed by hand' });
    expect(inEnv.policy_evaluations).toEqual([expect.objectContaining({ policy_name: 'prod-requirements', policy_version: 1, status: 'NON-COMPLIANT' })]);
    const byPolicy = (await assert(WEB, { policy_name: ['prod-requirements'] }).expect(200)).body;
    expect(byPolicy).toMatchObject({ scope: 'policy', environment: null, compliant: false, allow_listing: null });
    expect(byPolicy.reasons).toEqual(["policy 'prod-requirements' v1: missing attestation 'pull-request' of type 'pull_request' in trail 't1' of flow 'runner'"]);
    const failed = byPolicy.policy_evaluations[0].rule_evaluations.find((r: any) => r.satisfied === false);
    expect(failed).toMatchObject({ ignored: false, resolutions: [{ type: 'missing_attestation', context: { flow_name: 'runner', trail_name: 't1' } }] });
    const byFlow = (await assert(WEB).expect(200)).body;
    expect(byFlow).toMatchObject({ scope: 'flow', compliant: true, policy_evaluations: null });
    expect(byFlow.flows).toEqual([expect.objectContaining({ flow: 'runner', trail: 't1', compliant: true })]);
    expect(byFlow.compliance_status.attestations_statuses).toEqual([
      { attestation_name: 'unit-test', attestation_type: 'generic', status: 'COMPLETE', is_compliant: true, unexpected: true },
    ]);
    expect((await assert(API).expect(200)).body).toMatchObject({ compliant: false, reasons: ["trail 't2' of flow 'runner' is NON-COMPLIANT"] });
    const lax = `${V1}artifacts:\n  provenance:\n    required: true\n`;
    await putPolicy('has-provenance', lax).expect(201);
    expect((await assert(API, { policy_name: ['has-provenance'] }).expect(200)).body.compliant).toBe(true);
    expect((await assert(API, { policy_name: ['has-provenance', 'prod-requirements'] }).expect(200)).body.policy_evaluations.map((p: any) => p.status)).toEqual([
      'COMPLIANT',
      'NON-COMPLIANT',
    ]);
    await assert(DOG).expect(404, { message: `Artifact with fingerprint '${DOG}' not found`, errors: null });
    await assert(WEB, { flow_name: 'other' }).expect(404);
    await assert(WEB, { environment_name: 'nowhere' }).expect(404, { message: "Environment 'nowhere' not found", errors: null });
    await assert(WEB, { policy_name: 'nope' }).expect(404, { message: "Policy 'nope' not found", errors: null });
    expect((await assert(WEB, { environment_name: 'prod', policy_name: 'x' }).expect(400)).body.errors).toEqual({
      policy_name: 'environment_name and policy_name are mutually exclusive: assert against one',
    });
    await assert('abc').expect(400);
  });

  it('detaching the last policy brings the rule of old back, as a new snapshot', async () => {
    await detach('prod', ['nope']).expect(404);
    const res = await detach('prod', ['prod-requirements']).expect(200);
    expect(res.body).toEqual({ environment: 'prod', policies: [], snapshot: 5 });
    const s5 = (await env.snapshot('prod', 'latest').expect(200)).body;
    expect([s5.index, s5.compliant, s5.applied_policies]).toEqual([5, true, []]);
    expect(byName(s5, 'web').policy_decisions).toEqual([]);
    // ON_COMPLIANT_ENV / ON_NON_COMPLIANT_ENV: an event whenever a snapshot's compliance differs from the one before.
    const changes = await t.dataSource.query(
      `SELECT (payload->>'snapshot')::int AS snapshot, payload->'compliant' AS compliant, payload->'was' AS was FROM outbox_events o
       JOIN organizations g ON g.id = o.org_id WHERE g.name = $1 AND o.type = 'environment.compliance_changed' AND o.subject->>'environment' = 'prod' ORDER BY o.id`,
      [org.name],
    );
    expect(changes).toEqual([
      { snapshot: 1, compliant: false, was: null },
      { snapshot: 4, compliant: true, was: false },
    ]);
    // With no policy the environment scope is ignored and the flows decide, as in the reference.
    expect((await assert(API, { environment_name: 'prod' }).expect(200)).body).toMatchObject({ scope: 'flow', environment: null, compliant: false });
    await attach('prod', ['nope']).expect(404);
    await attach('nowhere', ['has-provenance']).expect(404);
    await env.create({ name: 'all-prod', type: 'logical', description: '' }).expect(201);
    expect((await attach('all-prod', ['has-provenance']).expect(400)).body.message).toBe(
      "Environment 'all-prod' is a logical environment: policies apply to physical environments",
    );
    expect((await attach('prod', []).expect(400)).body.errors).toEqual({ policy_names: expect.any(String) });
  });

  it('attaching to an environment with no snapshot yet takes none; its first report is judged by the policy', async () => {
    await env.create({ name: 'staging', type: 'K8S', description: '' }).expect(201);
    expect((await attach('staging', ['has-provenance']).expect(200)).body).toEqual({ environment: 'staging', policies: ['has-provenance'], snapshot: null });
    await env.report('staging', 'K8S', { artifacts: [pod('dd-1', { 'datadog:agent': DOG })] }).expect(201);
    const s1 = (await env.snapshot('staging', 'latest').expect(200)).body;
    expect([s1.compliant, s1.applied_policies]).toEqual([false, [{ name: 'has-provenance', version: 1 }]]);
    expect(byName(s1, 'datadog:agent').reasons_for_incompliance).toEqual(["policy 'has-provenance' v1: no provenance: no trail reported this artifact"]);
  });
  it('the controls rule: a compliant decision for the named control, recorded for the artifact (last: it changes t1)', async () => {
    await as(t.http().post(`/api/v2/controls/${org.name}`)).send({ identifier: 'RCTL-043', name: 'Source code review' }).expect(201);
    await putPolicy('controls', `${V1}artifacts:\n  attestations:\n    - type: decision\n      for_control: RCTL-043\n`).expect(201);
    const decide = (compliant: boolean) =>
      as(t.http().post(`/api/v2/attestations/${org.name}/runner/trail/t1/system`))
        .field('data_json', JSON.stringify({ type_name: 'decision', attestation_name: 'review', control: 'RCTL-043', attestation_data: { is_compliant: compliant }, artifact_fingerprint: WEB }))
        .expect(201);
    const before = (await assert(WEB, { policy_name: 'controls' }).expect(200)).body;
    expect(before.reasons).toEqual(["policy 'controls' v1: missing a decision for control 'RCTL-043' in trail 't1' of flow 'runner'"]);
    expect(before.policy_evaluations[0].rule_evaluations[0].resolutions).toEqual([
      { type: 'missing_attestation', context: { flow_name: 'runner', trail_name: 't1', for_control: 'RCTL-043' } },
    ]);
    await decide(false);
    expect((await assert(WEB, { policy_name: 'controls' }).expect(200)).body.reasons).toEqual([
      "policy 'controls' v1: a decision for control 'RCTL-043' is not compliant in trail 't1' of flow 'runner'",
    ]);
    await decide(true);
    expect((await assert(WEB, { policy_name: 'controls' }).expect(200)).body).toMatchObject({ compliant: true, reasons: [] });
  });
  it("a snapshot judged anew shows in the environment's event log; an archived environment's rules no longer change", async () => {
    await env.create({ name: 'edge', type: 'K8S', description: '' }).expect(201);
    await env.report('edge', 'K8S', { artifacts: [pod('web-1', { web: WEB })] }).expect(201);
    await attach('edge', ['prod-requirements']).expect(200);
    const events = (await as(t.http().get(`/api/v2/environments/${org.name}/edge/events`)).expect(200)).body;
    expect(events.map((e: any) => [e.snapshot_index, e.type, e.description])).toEqual([
      [2, 'compliance_changed', 'environment became non-compliant'],
      [1, 'compliance_changed', 'environment became compliant'],
      [1, 'started', '1 instance started'],
    ]);
    await as(t.http().put(`/api/v2/environments/${org.name}/edge/archive`)).expect(200);
    const refused = await detach('edge', ['prod-requirements']).expect(400);
    expect(refused.body.message).toContain('archived');
    expect((await env.snapshot('edge', 'latest').expect(200)).body.index).toBe(2);
  });
});
