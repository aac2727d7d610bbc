import { postGeneric, reportArtifact, FP } from '../support/attestation-helpers';
import { addMember, bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { waitOrGiveUp } from '../support/wait';
import { ALLOW_IF_UNIT_PASSES, createControl, evaluate, evaluationWorld } from '../support/evaluation-helpers';

const single = (extra: Record<string, unknown> = {}) => ({
  context: { trails: [{ flow: 'app', trail: 't1' }] },
  policy: { files: { 'policy.rego': ALLOW_IF_UNIT_PASSES } },
  ...extra,
});

/** Create evaluation, end to end: validation, errors, the input a policy sees, decisions, verification. */
describe('evaluations', () => {
  let t: TestApp;
  /** every org this suite made: each of their completed evaluations is replayed at the end */
  const orgs: TestOrg[] = [];
  const world = async (features?: string[]) => {
    const org = await evaluationWorld(t, features);
    orgs.push(org);
    return org;
  };

  beforeAll(async () => (t = await startTestApp()));
  afterAll(() => t.close());

  describe('the request', () => {
    let org: TestOrg;
    beforeAll(async () => (org = await world()));

    it('refuses unknown fields at every level, keyed by their path', async () => {
      const res = await evaluate(t, org, {
        ...single(),
        extra: 1,
        context: { trails: [{ flow: 'app', trail: 't1', branch: 'main' }], window: 1 },
        policy: { files: { 'p.rego': 'package policy' }, entrypoint: 'x' },
        decision: { control: 'C', name: 'n', flow: 'app', trail: 't1', reason: 'x' },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Input payload validation failed');
      expect(Object.keys(res.body.errors).sort()).toEqual(
        ['extra', 'context.window', 'context.trails[0].branch', 'policy.entrypoint', 'decision.reason'].sort(),
      );
    });

    it('checks every pattern, length and count, keyed by path', async () => {
      const trails = Array.from({ length: 5 }, () => ({ flow: 'app', trail: 't1' }));
      trails[3] = { flow: 'app', trail: '-bad' };
      const res = await evaluate(t, org, {
        context: { trails },
        policy: { files: { '../escape.rego': 'package policy' } },
        decision: { control: 'has space', name: 'n.dot', flow: 'app', trail: 't1', fingerprint: 'XYZ' },
      });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors).sort()).toEqual(
        ['context.trails[3].trail', 'policy.files', 'decision.control', 'decision.name', 'decision.fingerprint'].sort(),
      );
      const tooMany = await evaluate(t, org, {
        context: { trails: Array.from({ length: 101 }, (_, i) => ({ flow: 'app', trail: `t${i}` })) },
        policy: { files: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`p${i}.rego`, 'package policy'])) },
        decision: { control: 'x'.repeat(257), name: 'n', flow: 'app', trail: 't1' },
      });
      expect(Object.keys(tooMany.body.errors).sort()).toEqual(['context.trails', 'decision.control', 'policy.files'].sort());
      const none = await evaluate(t, org, { context: { trails: [] }, policy: { files: {} } });
      expect(Object.keys(none.body.errors).sort()).toEqual(['context.trails', 'policy.files']);
    });

    it('is 403 for an org without the beta flag, before the body is read', async () => {
      const off = await createOrg(t, { features: [] });
      const res = await evaluate(t, off, { not: 'even valid' });
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/evaluations/);
    });

    it('needs the member role; a reader is refused', async () => {
      const reader = await addMember(t, org.name, 'reader');
      expect((await evaluate(t, org, single(), reader)).status).toBe(403);
    });

    it('takes HTTP Basic with the API key as user name or as password', async () => {
      const asUser = await t.http().post(`/api/v2/evaluations/${org.name}`).auth(org.adminKey, '').send(single());
      expect(asUser.status).toBe(201);
      const asPassword = await t.http().post(`/api/v2/evaluations/${org.name}`).auth('anyone', org.adminKey).send(single());
      expect(asPassword.status).toBe(201);
      // ... and only here: the read routes are Bearer only.
      expect((await t.http().get(`/api/v2/evaluations/${org.name}`).auth(org.adminKey, '')).status).toBe(401);
    });

    it('is 404 naming the first missing flow, trail or decision artifact, and writes nothing', async () => {
      const before = (await t.http().get(`/api/v2/evaluations/${org.name}`).set(...bearer(org.adminKey))).body.pagination.total;
      const missingFlow = await evaluate(t, org, { ...single(), context: { trails: [{ flow: 'app', trail: 't1' }, { flow: 'nope', trail: 'x' }, { flow: 'app', trail: 'gone' }] } });
      expect([missingFlow.status, missingFlow.body.message]).toEqual([404, "Flow 'nope' not found"]);
      const missingTrail = await evaluate(t, org, { ...single(), context: { trails: [{ flow: 'app', trail: 'gone' }, { flow: 'nope', trail: 'x' }] } });
      expect([missingTrail.status, missingTrail.body.message]).toEqual([404, "Trail 'gone' not found in flow 'app'"]);
      await createControl(t, org, 'C-404');
      const missingArtifact = await evaluate(t, org, single({ decision: { control: 'C-404', name: 'gate', flow: 'app', trail: 't1', fingerprint: FP('e') } }));
      expect(missingArtifact.status).toBe(404);
      expect(missingArtifact.body.message).toBe(`Artifact with fingerprint '${FP('e')}' not found in trail 't1' of flow 'app'`);
      const missingDecisionTrail = await evaluate(t, org, single({ decision: { control: 'C-404', name: 'gate', flow: 'app', trail: 'elsewhere' } }));
      expect([missingDecisionTrail.status, missingDecisionTrail.body.message]).toEqual([404, "Trail 'elsewhere' not found in flow 'app'"]);
      const after = (await t.http().get(`/api/v2/evaluations/${org.name}`).set(...bearer(org.adminKey))).body.pagination.total;
      expect(after).toBe(before);
    });

    it('is 404 for an unknown control and 400 for an archived one, decided at request time', async () => {
      const unknown = await evaluate(t, org, single({ decision: { control: 'NO-SUCH', name: 'gate', flow: 'app', trail: 't1' } }));
      expect([unknown.status, unknown.body.message, unknown.body.errors]).toEqual([404, "Control 'NO-SUCH' not found", { 'decision.control': 'no such control' }]);
      await createControl(t, org, 'OLD');
      await t.http().post(`/api/v2/controls/${org.name}/OLD/archive`).set(...bearer(org.adminKey)).expect(200);
      const archived = await evaluate(t, org, single({ decision: { control: 'OLD', name: 'gate', flow: 'app', trail: 't1' } }));
      expect([archived.status, archived.body.errors]).toEqual([400, { 'decision.control': 'is archived' }]);
    });

    it('is 409 when a trail has two slots with one attestation name (no input can be built)', async () => {
      const template = 'version: 1\ntrail:\n  attestations:\n    - name: same\n      type: generic\n    - name: same\n      type: generic\n';
      await t.http().put(`/api/v2/flows/${org.name}/template_file`).set(...bearer(org.adminKey))
        .field('data_json', JSON.stringify({ name: 'dupes' }))
        .attach('template_file', Buffer.from(template), 'template.yml')
        .expect(201);
      await t.http().put(`/api/v2/trails/${org.name}/dupes`).set(...bearer(org.adminKey)).field('data_json', JSON.stringify({ name: 'd1' })).expect(201);
      const res = await evaluate(t, org, { ...single(), context: { trails: [{ flow: 'dupes', trail: 'd1' }] } });
      expect(res.status).toBe(409);
      expect(res.body.message).toMatch(/share the attestation name 'same'/);
    });

    it('evaluates a flow/trail pair named twice once', async () => {
      const res = await evaluate(t, org, { ...single(), context: { trails: [{ flow: 'app', trail: 't1' }, { flow: 'app', trail: 't1' }] } });
      expect(res.status).toBe(201);
      expect(res.body.verification.trails).toHaveLength(1);
    });
  });

  describe('the input a policy sees', () => {
    it('is the CLI evaluate-trails shape: input.trails sorted, input.trail for one trail, params as data.params', async () => {
      const org = await world();
      await t.http().put(`/api/v2/trails/${org.name}/app`).set(...bearer(org.adminKey)).field('data_json', JSON.stringify({ name: 'a0', description: 'first' })).expect(201);
      await reportArtifact(t, org.adminKey, org.name, 'app', 'a0', FP('a'), 'web');
      await postGeneric(t, org.adminKey, org.name, 'app', 'a0', { attestation_name: 'scan', is_compliant: false, artifact_fingerprint: FP('a'), user_data: { cves: 2 } }).expect(201);
      const echo = `package policy

import rego.v1

names := [sprintf("%s/%s", [t.flow_name, t.trail_name]) | some t in input.trails]
single := object.get(input, "trail", null) != null
scan := input.trails[0].compliance_status.artifacts_statuses.web.attestations_statuses.scan
unit := input.trails[1].compliance_status.attestations_statuses.unit
threshold := data.params.threshold
now := format_int(time.now_ns(), 10)
`;
      const res = await evaluate(t, org, {
        context: { trails: [{ flow: 'app', trail: 't1' }, { flow: 'app', trail: 'a0' }] },
        policy: { files: { 'echo.rego': echo } },
        params: { threshold: 3 },
      }).expect(201);
      expect(res.body.status).toBe('completed');
      const r = res.body.result;
      expect(r.names).toEqual(['app/a0', 'app/t1']);
      expect(r.single).toBe(false);
      expect(r.threshold).toBe(3);
      // an artifact slot: the entry's own fields win, the stored attestation's fields are merged under them
      expect(r.scan).toMatchObject({ attestation_name: 'scan', status: 'COMPLETE', is_compliant: false, unexpected: true, user_data: { cves: 2 }, artifact_fingerprint: FP('a') });
      expect(r.unit).toMatchObject({ attestation_name: 'unit', attestation_type: 'generic', is_compliant: true, flow_name: 'app', trail_name: 't1' });
      // time.now_ns() is recorded_at
      const [whole, fraction] = res.body.verification.recorded_at.split('.');
      expect(r.now).toBe(`${whole}${(fraction ?? '').padEnd(9, '0')}`);
      const one = await evaluate(t, org, single({ policy: { files: { 'echo.rego': echo.replace(/^unit :=.*$/m, '') } } })).expect(201);
      expect(one.body.result.single).toBe(true);
    });

    it('runs Rego v0 modules when the bundle manifest says so, per bundle or per file', async () => {
      const org = await world();
      const v0 = 'package policy\n\ndefault allow = false\n\nallow { input.trail.compliance_status.attestations_statuses.unit.is_compliant }\n';
      const res = await evaluate(t, org, { ...single(), policy: { files: { 'p.rego': v0, '.manifest': '{"rego_version": 0}' } } }).expect(201);
      expect(res.body).toMatchObject({ status: 'completed', result: { allow: true } });
      const perFile = await evaluate(t, org, {
        ...single(),
        policy: { files: { 'old/p.rego': v0, 'new/q.rego': 'package policy\n\nnote := "v1"\n', '.manifest': '{"file_rego_versions": {"old/p.rego": 0}}' } },
      }).expect(201);
      expect(perFile.body).toMatchObject({ status: 'completed', result: { allow: true, note: 'v1' } });
      const undeclared = await evaluate(t, org, { ...single(), policy: { files: { 'p.rego': v0 } } }).expect(201);
      expect(undeclared.body).toMatchObject({ status: 'failed', error: { kind: 'policy_parse_error' } });
    });

    it('sees a trail as it was at its moment: a later update changes new evaluations, not a replay', async () => {
      const org = await world();
      const begin = (data: object) =>
        t.http().put(`/api/v2/trails/${org.name}/app`).set(...bearer(org.adminKey)).field('data_json', JSON.stringify({ name: 't1', ...data }));
      await begin({ description: 'before', repo_info: { id: '1', name: 'acme/one', url: 'https://git.example.com/acme/one' } }).expect(200);
      const echo = 'package policy\n\nimport rego.v1\n\ndescription := input.trail.description\nrepos := count(input.trail.repo_ids)\n';
      const first = await evaluate(t, org, { ...single(), policy: { files: { 'p.rego': echo } } }).expect(201);
      expect(first.body.result).toEqual({ description: 'before', repos: 1 });
      await begin({ description: 'after', repo_info: { id: '2', name: 'acme/two', url: 'https://git.example.com/acme/two' } }).expect(200);
      const second = await evaluate(t, org, { ...single(), policy: { files: { 'p.rego': echo } } }).expect(201);
      expect(second.body.result).toEqual({ description: 'after', repos: 1 });
      const replay = await t.http().post(`/api/v2/evaluations/${org.name}/${first.body.id}/replay`).set(...bearer(org.adminKey)).expect(200);
      expect(replay.body.identical).toBe(true);
    });

    it('sees the name the flow has now: a rename makes no new moment, and the next evaluation shows the new name; a replay the old', async () => {
      const org = await world();
      const echo = 'package policy\n\nimport rego.v1\n\nflow := input.trail.flow_name\n';
      const before = await evaluate(t, org, { ...single(), policy: { files: { 'p.rego': echo } } }).expect(201);
      expect(before.body.result).toEqual({ flow: 'app' });
      await t.http().put(`/api/v2/flows/${org.name}/app/rename`).set(...bearer(org.adminKey)).send({ new_name: 'app2' }).expect(200);
      const after = await evaluate(t, org, { context: { trails: [{ flow: 'app2', trail: 't1' }] }, policy: { files: { 'p.rego': echo } } }).expect(201);
      expect(after.body.result).toEqual({ flow: 'app2' });
      // The one made before reads its trail by id, as it saw it: the same input, the same result.
      const replay = await t.http().post(`/api/v2/evaluations/${org.name}/${before.body.id}/replay`).set(...bearer(org.adminKey)).expect(200);
      expect(replay.body.identical).toBe(true);
      // And a new flow that takes the old name changes nothing for it.
      await t.http().put(`/api/v2/flows/${org.name}`).set(...bearer(org.adminKey)).send({ name: 'app' }).expect(201);
      await t.http().put(`/api/v2/trails/${org.name}/app`).set(...bearer(org.adminKey)).field('data_json', JSON.stringify({ name: 't1', description: 'another' })).expect(201);
      expect((await t.http().post(`/api/v2/evaluations/${org.name}/${before.body.id}/replay`).set(...bearer(org.adminKey)).expect(200)).body.identical).toBe(true);
    });

    it('mounts data.json and data.yaml at their folder path', async () => {
      const org = await world();
      const res = await evaluate(t, org, {
        ...single(),
        policy: {
          files: {
            'policy/main.rego': 'package policy\n\nimport rego.v1\n\nallow := data.settings.enabled\nteams := data.org.teams\nroot := data.version\n',
            'data.json': '{"version": 2}',
            'settings/data.json': '{"enabled": true}',
            'org/data.yaml': 'teams:\n  - core\n  - web\n',
            'README.md': 'carried, unused',
          },
        },
      }).expect(201);
      expect(res.body.result).toEqual({ allow: true, teams: ['core', 'web'], root: 2 });
    });
  });

  describe('outcomes', () => {
    let org: TestOrg;
    beforeAll(async () => (org = await world()));
    const failure = async (files: Record<string, string>, extra: Record<string, unknown> = {}) => {
      const res = await evaluate(t, org, { ...single(), policy: { files }, ...extra }).expect(201);
      expect(res.body.status).toBe('failed');
      expect(res.body).not.toHaveProperty('result');
      return res.body.error;
    };

    it('classifies every failure of a policy by kind, never as the service fault', async () => {
      expect((await failure({ 'p.rego': 'package policy\n\nallow if {' })).kind).toBe('policy_parse_error');
      expect((await failure({ 'p.rego': 'package policy\n\nimport rego.v1\n\nallow if x > 1\n' })).kind).toBe('policy_compile_error');
      expect(
        (await failure({ 'p.rego': 'package policy\n\nimport rego.v1\n\nallow := true if input.trails\nallow := false if input.trails\n' })).kind,
      ).toBe('policy_runtime_error');
      expect((await failure({ 'p.rego': 'package other\n\nallow := true\n' })).kind).toBe('policy_output_invalid');
      // A result PostgreSQL cannot store (a NUL from base64.decode) is the policy's output, not the service's fault.
      const nul = await failure({ 'p.rego': 'package policy\n\nallow := true\n\nnote := base64.decode("AA==")\n' });
      expect(nul).toMatchObject({ kind: 'policy_output_invalid', message: expect.stringMatching(/^result\.note: /) });
      await createControl(t, org, 'C-OUT');
      const decision = { decision: { control: 'C-OUT', name: 'gate', flow: 'app', trail: 't1' } };
      const notBoolean = await failure({ 'p.rego': 'package policy\n\nallow := "yes"\n' }, decision);
      expect(notBoolean).toEqual({ kind: 'policy_output_invalid', message: 'data.policy.allow must be a boolean for a decision, got "yes"' });
      expect((await failure({ 'data.json': '{"broken": ', 'p.rego': 'package policy\n\nallow := true\n' })).kind).toBe('policy_parse_error');
      const parse = await failure({ 'p.rego': 'package policy\n\nallow if {' });
      expect(parse.message).toMatch(/^p\.rego:\d+:\d+: /);
    });

    it('leaves no recovery job behind once the outcome is recorded, completed or failed', async () => {
      const jobsOf = async (id: string) =>
        (await t.dataSource.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'evaluations' AND id = $1`, [id]))[0].n;
      const ok = await evaluate(t, org, { ...single(), policy: { files: { 'p.rego': 'package policy\n\nallow := true\n' } } }).expect(201);
      expect(ok.body.status).toBe('completed');
      expect(await jobsOf(ok.body.id)).toBe(0);
      expect(await failure({ 'p.rego': 'package policy\n\nallow if {' })).toMatchObject({ kind: 'policy_parse_error' });
      const [failed] = await t.dataSource.query(`SELECT id FROM evaluations WHERE org_id = (SELECT id FROM organizations WHERE name = $1) ORDER BY requested_at DESC LIMIT 1`, [org.name]);
      expect(await jobsOf(failed.id)).toBe(0);
    });

    it('a bundle with a policy.wasm runs on the wasm engine (the SDK refuses a module that is not OPA-compiled)', async () => {
      const notOpa = Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]).toString('base64');
      const res = await evaluate(t, org, { ...single(), policy: { files: { 'policy.wasm': notOpa } } }).expect(201);
      expect(res.body).toMatchObject({ status: 'failed', error: { kind: 'policy_compile_error' }, verification: { engine: 'opa-wasm' } });
    });

    it('a decision is written with the outcome, found by its id, and counted in compliance and moments', async () => {
      await createControl(t, org, 'C-GATE');
      await reportArtifact(t, org.adminKey, org.name, 'app', 't1', FP('b'), 'cli');
      const res = await evaluate(t, org, single({ decision: { control: 'C-GATE', name: 'gate', flow: 'app', trail: 't1', fingerprint: FP('b') } })).expect(201);
      expect(res.body).toMatchObject({ status: 'completed', result: { allow: true, violations: [] } });
      const id = res.body.decision_attestation_id;
      const found = await t.http().get(`/api/v2/attestations/${org.name}?attestation_id=${id}`).set(...bearer(org.adminKey)).expect(200);
      const attestation = found.body.data[0];
      expect(attestation).toMatchObject({
        attestation_type: 'decision',
        attestation_name: 'gate',
        artifact_name: 'cli',
        artifact_fingerprint: FP('b'),
        is_compliant: true,
        control: 'C-GATE',
        violations: [],
      });
      expect(attestation.evaluation).toEqual({
        evaluation_id: res.body.id,
        policy_digest: res.body.verification.policy_digest,
        policy_file_digests: { 'policy.rego': expect.stringMatching(/^[0-9a-f]{64}$/) },
        input_digest: res.body.verification.input_digest,
        result_digest: res.body.verification.result_digest,
        engine: 'veritrail-rego',
        engine_version: res.body.verification.engine_version,
        recorded_at: res.body.verification.recorded_at,
        trails: [{ flow_name: 'app', trail_name: 't1', moment_number: expect.any(Number) }],
      });
      const trail = await t.http().get(`/api/v2/trails/${org.name}/app/t1`).set(...bearer(org.adminKey)).expect(200);
      const slot = trail.body.compliance_status.artifacts_statuses.cli.attestations_statuses.find((s: any) => s.attestation_name === 'gate');
      expect(slot).toMatchObject({ attestation_id: id, attestation_type: 'decision', is_compliant: true });
      const moment = await t.http().get(`/api/v2/trails/${org.name}/app/t1/moments/latest`).set(...bearer(org.adminKey)).expect(200);
      expect(moment.body.compliance_status['cli.gate']).toMatchObject({ attestation_id: id, is_compliant: true });
      // the control lists the policy that decided on it
      const control = await t.http().get(`/api/v2/controls/${org.name}/C-GATE`).set(...bearer(org.adminKey)).expect(200);
      expect(control.body.policies_referencing).toEqual([res.body.verification.policy_digest]);
      // a denying policy records a non-compliant decision with its violations
      const deny = await evaluate(t, org, {
        ...single(),
        policy: { files: { 'p.rego': 'package policy\n\nimport rego.v1\n\nallow := false\n\nviolations contains "b" if true\nviolations contains "a" if true\n' } },
        decision: { control: 'C-GATE', name: 'gate2', flow: 'app', trail: 't1' },
      }).expect(201);
      const denied = await t.http().get(`/api/v2/attestations/${org.name}?attestation_id=${deny.body.decision_attestation_id}`).set(...bearer(org.adminKey));
      expect(denied.body.data[0]).toMatchObject({ is_compliant: false, violations: ['a', 'b'] });
    });

    it('a dry run (no decision) writes nothing to any trail', async () => {
      const before = (await t.http().get(`/api/v2/trails/${org.name}/app/t1`).set(...bearer(org.adminKey))).body.last_moment;
      const res = await evaluate(t, org, single()).expect(201);
      expect(res.body.status).toBe('completed');
      expect(res.body).not.toHaveProperty('decision_attestation_id');
      const after = (await t.http().get(`/api/v2/trails/${org.name}/app/t1`).set(...bearer(org.adminKey))).body.last_moment;
      expect(after).toBe(before);
    });

    it('decisions made outside the service arrive as the CLI sends them (system route)', async () => {
      await createControl(t, org, 'C-CLI');
      const post = (data: unknown) =>
        t.http().post(`/api/v2/attestations/${org.name}/app/trail/t1/system`).set(...bearer(org.adminKey)).field('data_json', JSON.stringify(data));
      const ok = await post({ type_name: 'decision', attestation_name: 'manual', control: 'C-CLI', attestation_data: { is_compliant: false } }).expect(201);
      expect(ok.body).toMatch(/^decision attestation 'manual' was reported to trail 't1'/);
      const trail = await t.http().get(`/api/v2/trails/${org.name}/app/t1`).set(...bearer(org.adminKey));
      expect(trail.body.compliance_status.attestations_statuses.find((s: any) => s.attestation_name === 'manual')).toMatchObject({
        attestation_type: 'decision',
        is_compliant: false,
      });
      expect((await post({ type_name: 'decision', attestation_name: 'm', control: 'NONE', attestation_data: { is_compliant: true } })).status).toBe(404);
      await t.http().post(`/api/v2/controls/${org.name}/C-CLI/archive`).set(...bearer(org.adminKey)).expect(200);
      const archived = await post({ type_name: 'decision', attestation_name: 'm', control: 'C-CLI', attestation_data: { is_compliant: true } });
      expect([archived.status, archived.body.errors]).toEqual([400, { control: 'is archived' }]);
      const bad = await post({ type_name: 'snapshot', attestation_name: 'm', control: 'C-CLI', attestation_data: {} });
      expect(Object.keys(bad.body.errors).sort()).toEqual(['attestation_data.is_compliant', 'type_name']);
    });
  });

  describe('one instant', () => {
    it('for every trail, moments/@{recorded_at} is exactly the moment used, while attestations race into the trails', async () => {
      const org = await world();
      const trails = ['r1', 'r2', 'r3'];
      for (const name of trails) {
        await t.http().put(`/api/v2/trails/${org.name}/app`).set(...bearer(org.adminKey)).field('data_json', JSON.stringify({ name })).expect(201);
      }
      let writing = true;
      const writers = trails.map(async (trail) => {
        let n = 0;
        while (writing) await postGeneric(t, org.adminKey, org.name, 'app', trail, { attestation_name: `w${n++ % 5}`, is_compliant: true }).expect(201);
      });
      const evaluations = [];
      for (let i = 0; i < 6; i++) {
        evaluations.push(
          (await evaluate(t, org, { context: { trails: trails.map((trail) => ({ flow: 'app', trail })) }, policy: { files: { 'p.rego': 'package policy\n\nn := count(input.trails)\n' } } }).expect(201)).body,
        );
      }
      writing = false;
      await Promise.all(writers);
      for (const e of evaluations) {
        expect(e.status).toBe('completed');
        for (const used of e.verification.trails) {
          const m = await t.http().get(`/api/v2/trails/${org.name}/app/${used.trail_name}/moments/@{${e.verification.recorded_at}}`).set(...bearer(org.adminKey)).expect(200);
          expect(m.body.moment_number).toBe(used.moment_number);
        }
      }
      // the writes really raced: the trails moved on between the evaluations
      expect(new Set(evaluations.map((e) => e.verification.trails[0].moment_number)).size).toBeGreaterThan(1);
    });
  });

  describe('reading', () => {
    it('GET one, and the list newest first with status and control filters', async () => {
      const org = await world();
      await createControl(t, org, 'C-LIST');
      const a = (await evaluate(t, org, single()).expect(201)).body;
      const b = (await evaluate(t, org, single({ decision: { control: 'C-LIST', name: 'g', flow: 'app', trail: 't1' } })).expect(201)).body;
      const c = (await evaluate(t, org, { ...single(), policy: { files: { 'p.rego': 'package policy\n\nallow if {' } } }).expect(201)).body;
      const got = await t.http().get(`/api/v2/evaluations/${org.name}/${b.id}`).set(...bearer(org.adminKey)).expect(200);
      expect(got.body).toEqual(b);
      const list = await t.http().get(`/api/v2/evaluations/${org.name}`).set(...bearer(org.adminKey)).expect(200);
      expect(list.body.data.map((e: any) => e.id)).toEqual([c.id, b.id, a.id]);
      const failed = await t.http().get(`/api/v2/evaluations/${org.name}?status=failed`).set(...bearer(org.adminKey)).expect(200);
      expect(failed.body.data.map((e: any) => e.id)).toEqual([c.id]);
      const byControl = await t.http().get(`/api/v2/evaluations/${org.name}?control=C-LIST`).set(...bearer(org.adminKey)).expect(200);
      expect(byControl.body.data.map((e: any) => e.id)).toEqual([b.id]);
      expect((await t.http().get(`/api/v2/evaluations/${org.name}/not-a-uuid`).set(...bearer(org.adminKey))).status).toBe(404);
      expect((await t.http().get(`/api/v2/evaluations/${org.name}/${a.id.replace(/.$/, a.id.endsWith('0') ? '1' : '0')}`).set(...bearer(org.adminKey))).status).toBe(404);
    });
  });

  describe('pending, then completed', () => {
    let slow: TestApp;
    beforeAll(async () => (slow = await startTestApp({ EVALUATION_WAIT_MS: '0' })));
    afterAll(() => slow.close());

    it('answers 201 pending when the result is not there in time, and GET shows it completed later', async () => {
      const org = await evaluationWorld(slow);
      orgs.push(org);
      const res = await slow.http().post(`/api/v2/evaluations/${org.name}`).set(...bearer(org.adminKey)).send(single()).expect(201);
      expect(res.body).toMatchObject({ status: 'pending', recorded_at: expect.any(Number) });
      expect(res.body).not.toHaveProperty('result');
      const status = await waitOrGiveUp(async () => {
        const s = (await slow.http().get(`/api/v2/evaluations/${org.name}/${res.body.id}`).set(...bearer(org.adminKey))).body.status;
        return s === 'pending' ? undefined : s;
      }, { timeoutMs: 30_000, intervalMs: 50 });
      expect(status).toBe('completed');
    });
  });

  it('replays every completed evaluation of this suite identically', async () => {
    let replayed = 0;
    for (const org of orgs) {
      const list = await t.http().get(`/api/v2/evaluations/${org.name}?per_page=100`).set(...bearer(org.adminKey)).expect(200);
      for (const e of list.body.data) {
        if (e.status === 'pending') continue;
        const res = await t.http().post(`/api/v2/evaluations/${org.name}/${e.id}/replay`).set(...bearer(org.adminKey)).expect(200);
        expect({ id: e.id, replay: res.body }).toEqual({ id: e.id, replay: expect.objectContaining({ identical: true }) });
        if (e.status === 'completed') replayed++;
      }
    }
    expect(replayed).toBeGreaterThan(15);
  });
});
