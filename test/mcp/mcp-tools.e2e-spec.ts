import { createHash } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { leafHash, parseCheckpoint, rootFromInclusionProof } from '../../libs/transparency/src';
import { addMember } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { call, Connect, overHttp, overStdio } from './mcp-clients';
import { McpWorld, seedWorld } from './mcp-world';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const TOOL_NAMES = [
  'check_deployment_gate',
  'control_decisions',
  'environment_changes',
  'environment_now',
  'explain_evaluation',
  'explain_trail_compliance',
  'find_artifact',
  'list_non_compliant',
  'log_inclusion_proof',
];

/**
 * The MCP server through the SDK's own client, over both transports, against a real service (the app on a real
 * port and PostgreSQL): every tool's answer and errors, a reader's limits, and another organization's data out of reach.
 */
describe.each<[string, Connect]>([
  ['Streamable HTTP at /mcp/{org}', overHttp],
  ['stdio (npm run mcp)', overStdio],
])('MCP tools over %s', (_transport, connect) => {
  /** The address answers cite: the service's public base URL in the service, the --url given to the stdio server. */
  const cited = () => (connect === overHttp ? t.config.publicBaseUrl : t.baseUrl);
  let t: TestApp;
  let a: McpWorld;
  let b: McpWorld;
  let admin: Client;
  let reader: Client;
  let tools: Tool[];
  const clients: Client[] = [];
  const open = async (org: string, key: string) => {
    const client = await connect(t.baseUrl, org, key);
    clients.push(client);
    return client;
  };
  const run = (name: string, args: Record<string, unknown>, client = admin) => call(client, tools, name, args);
  /** What of org b no answer to org a may show. */
  const secretsOf = (w: McpWorld) => [w.org.name, w.flow, w.trail, w.failingTrail, w.fingerprint, w.failingFingerprint, w.commit, w.artifactName, w.env, w.policyName, w.control, w.evaluationId, w.attestationId];

  beforeAll(async () => {
    t = await startTestApp();
    a = await seedWorld(t, 'a');
    b = await seedWorld(t, 'b');
    admin = await open(a.org.name, a.org.adminKey);
    reader = await open(a.org.name, await addMember(t, a.org.name, 'reader'));
    tools = (await admin.listTools()).tools;
  }, 180_000);
  afterAll(async () => {
    for (const client of clients) await client.close();
    await t?.close();
  });

  it('lists the read-only tools, each with a description, an input schema and an output schema', () => {
    expect(tools.map((x) => x.name).sort()).toEqual(TOOL_NAMES);
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(80);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema).toMatchObject({ type: 'object', properties: expect.objectContaining({ citations: expect.anything() }) });
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    }
  });

  describe('find_artifact', () => {
    it('finds an artifact by fingerprint, by commit and by a prefix, with where it runs and the record it rests on', async () => {
      const byFingerprint = await run('find_artifact', { query: a.fingerprint });
      expect(byFingerprint.structured).toMatchObject({
        matched_by: 'fingerprint',
        total: 1,
        artifacts: [{ name: a.artifactName, fingerprint: a.fingerprint, flow: a.flow, trail: a.trail, git_commit: a.commit, compliance: 'COMPLIANT', running_in: [a.env] }],
      });
      expect(byFingerprint.structured.citations).toEqual([{ url: `${cited()}/api/v2/search/${a.org.name}/sha/${a.fingerprint}`, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
      expect((await run('find_artifact', { query: a.commit })).structured).toMatchObject({ matched_by: 'commit', artifacts: [{ fingerprint: a.fingerprint }] });
      expect((await run('find_artifact', { query: a.failingFingerprint.slice(0, 12) })).structured.artifacts).toEqual([expect.objectContaining({ fingerprint: a.failingFingerprint, compliance: 'NON-COMPLIANT' })]);
    });

    it('finds artifacts by part of their name, a page at a time', async () => {
      const first = await run('find_artifact', { query: a.artifactName.toUpperCase(), per_page: 1 });
      expect(first.structured).toMatchObject({ matched_by: 'name', total: 2, page: 1, per_page: 1, has_more: true, complete: true });
      const second = await run('find_artifact', { query: a.artifactName, per_page: 1, page: 2 });
      expect(second.structured.has_more).toBe(false);
      expect([first.structured.artifacts[0].fingerprint, second.structured.artifacts[0].fingerprint].sort()).toEqual([a.fingerprint, a.failingFingerprint].sort());
    });

    it('answers nothing found, and refuses arguments outside its schema', async () => {
      expect((await run('find_artifact', { query: 'no-such-artifact-name' })).structured).toMatchObject({ matched_by: 'nothing', artifacts: [], total: 0 });
      const none = (await run('find_artifact', { query: 'abcdef12345' })).structured;
      expect(none).toMatchObject({ matched_by: 'nothing', artifacts: [] });
      // "Nothing" rests on the search's own answer, and cites it.
      expect(none.citations).toEqual([{ url: `${cited()}/api/v2/search/${a.org.name}/sha/abcdef12345`, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
      const bad = await run('find_artifact', { query: '', per_page: 500 });
      expect(bad.isError).toBe(true);
      expect(bad.text).toMatch(/^Invalid arguments for find_artifact: .*query.*per_page|^Invalid arguments for find_artifact: .*per_page.*query/);
    });
  });

  describe('explain_trail_compliance', () => {
    it("says why a trail is not compliant: each slot's verdict, the failing one, and the override", async () => {
      const { structured } = await run('explain_trail_compliance', { flow: a.flow, trail: a.failingTrail });
      expect(structured).toMatchObject({ flow: a.flow, trail: a.failingTrail, status: 'NON-COMPLIANT', is_compliant: false, truncated: false });
      expect(structured.slots).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ slot: 'tests', kind: 'attestation', type: 'generic', is_compliant: false }),
          expect.objectContaining({ slot: 'review', kind: 'attestation', type: 'override', is_compliant: true, overridden_attestation_id: expect.any(String) }),
          expect.objectContaining({ slot: 'image', kind: 'artifact', is_compliant: true }),
        ]),
      );
      expect(structured.reasons).toEqual(["attestation 'tests' (generic) is not compliant"]);
      expect(structured.overrides).toEqual([{ slot: 'review', attestation_id: expect.any(String), overridden_attestation_id: expect.any(String) }]);
      expect(structured.citations[0].url).toBe(`${cited()}/api/v2/trails/${a.org.name}/${a.flow}/${a.failingTrail}`);
      // The digest is that of the record as the API serves it: reading the cited URL again gives the same bytes.
      const again = await fetch(structured.citations[0].url.replace(cited(), t.baseUrl), { headers: { Authorization: `Bearer ${a.org.adminKey}` } });
      expect(createHash('sha256').update(Buffer.from(await again.arrayBuffer())).digest('hex')).toBe(structured.citations[0].sha256);
    });

    it('gives no reason for a compliant trail, and the API\'s message for an unknown one', async () => {
      expect((await run('explain_trail_compliance', { flow: a.flow, trail: a.trail })).structured).toMatchObject({ is_compliant: true, reasons: [], overrides: [] });
      const missing = await run('explain_trail_compliance', { flow: a.flow, trail: 'no-such-trail' });
      expect(missing.isError).toBe(true);
      expect(missing.text).toMatch(/^The Veritrail API answered 404: .*no-such-trail/);
    });
  });

  describe('check_deployment_gate', () => {
    it("refuses a non-compliant artifact naming the unmet rule and its policy, and allows a compliant one", async () => {
      const refused = (await run('check_deployment_gate', { fingerprint: a.failingFingerprint, environment: a.env })).structured;
      expect(refused).toMatchObject({ allowed: false, environment: a.env, allow_listing: null, policies: [{ policy: a.policyName, policy_version: 1, status: 'NON-COMPLIANT' }] });
      expect(refused.unmet_rules).toEqual([expect.objectContaining({ policy: a.policyName, rule: 'trail-compliance', reasons: [`trail '${a.failingTrail}' of flow '${a.flow}' is NON-COMPLIANT`] })]);
      expect(refused.reasons.join(' ')).toContain(a.failingTrail);
      expect(refused.trails).toEqual([expect.objectContaining({ flow: a.flow, trail: a.failingTrail, compliant: false })]);
      const allowed = (await run('check_deployment_gate', { fingerprint: a.fingerprint, environment: a.env })).structured;
      expect(allowed).toMatchObject({ allowed: true, unmet_rules: [], reasons: [] });
      expect(allowed.citations[0].url).toContain(`/api/v2/asserts/${a.org.name}/fingerprint/${a.fingerprint}?environment_name=${a.env}`);
    });

    it('refuses a malformed fingerprint, and passes on the API\'s message for an unknown environment', async () => {
      const bad = await run('check_deployment_gate', { fingerprint: 'not-a-sha', environment: a.env });
      expect(bad.isError).toBe(true);
      expect(bad.text).toContain('/fingerprint must match pattern');
      const unknown = await run('check_deployment_gate', { fingerprint: a.fingerprint, environment: 'no-such-env' });
      expect(unknown.isError).toBe(true);
      expect(unknown.text).toMatch(/^The Veritrail API answered 404: .*no-such-env/);
    });
  });

  describe('environment_now and environment_changes', () => {
    it('says what runs now, a page at a time, with each artifact\'s compliance and provenance', async () => {
      const now = (await run('environment_now', { environment: a.env, per_page: 1 })).structured;
      expect(now).toMatchObject({ environment: a.env, snapshot: 3, is_latest: true, compliant: false, total: 2, has_more: true });
      const all = (await run('environment_now', { environment: a.env })).structured.artifacts;
      expect(all).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ fingerprint: a.fingerprint, compliant: true, instance_count: 1, flows: [{ flow: a.flow, trail: a.trail }], reasons: [] }),
          expect.objectContaining({ fingerprint: a.failingFingerprint, compliant: false, reasons: [expect.stringContaining(a.failingTrail)] }),
        ]),
      );
      expect((await run('environment_now', { environment: a.env, snapshot: '1' })).structured).toMatchObject({ snapshot: 1, compliant: true, total: 1 });
    });

    it('says what changed between two snapshots', async () => {
      const diff = (await run('environment_changes', { environment: a.env, from: '1', to: '2' })).structured;
      expect(diff).toMatchObject({ from: { snapshot: 1 }, to: { snapshot: 2 }, total: 1 });
      expect(diff.changes).toEqual([expect.objectContaining({ change: 'added', fingerprint: a.failingFingerprint, compliant: false, flows: [a.flow] })]);
      const unknown = await run('environment_now', { environment: a.env, snapshot: '99' });
      expect(unknown.isError).toBe(true);
      expect(unknown.text).toMatch(/^The Veritrail API answered 404/);
    });
  });

  describe('list_non_compliant', () => {
    it('lists the non-compliant trails and environments of a time span, and nothing for a span before them', async () => {
      const trails = (await run('list_non_compliant', { kind: 'trails', from: '2000-01-01T00:00:00Z' })).structured;
      expect(trails).toMatchObject({ complete: true, total: 1, items: [{ kind: 'trail', name: a.failingTrail, flow: a.flow, status: 'NON-COMPLIANT' }] });
      const envs = (await run('list_non_compliant', { kind: 'environments', from: '2000-01-01T00:00:00Z' })).structured;
      expect(envs.items).toEqual([expect.objectContaining({ kind: 'environment', name: a.env, non_compliant_snapshots: [2, 3] })]);
      const before = (await run('list_non_compliant', { kind: 'trails', from: '2000-01-01T00:00:00Z', to: '2000-01-02T00:00:00Z' })).structured;
      expect(before).toMatchObject({ items: [], total: 0 });
      const backwards = await run('list_non_compliant', { kind: 'trails', from: '2001-01-01T00:00:00Z', to: '2000-01-01T00:00:00Z' });
      expect(backwards.isError).toBe(true);
      expect(backwards.text).toBe('Invalid arguments for list_non_compliant: to must not be before from');
      const notATime = await run('list_non_compliant', { kind: 'trails', from: 'last tuesday' });
      expect(notATime.text).toBe('Invalid arguments for list_non_compliant: from must be an ISO 8601 time (2026-11-01T00:00:00Z) or Unix seconds');
      const unknownKind = await run('list_non_compliant', { kind: 'flows', from: '2000-01-01T00:00:00Z' });
      expect(unknownKind.text).toMatch(/^Invalid arguments for list_non_compliant: \/kind must be equal to one of the allowed values/);
    });
  });

  describe('control_decisions and explain_evaluation', () => {
    it("answers a control's decisions and coverage", async () => {
      const { structured } = await run('control_decisions', { control: a.control });
      expect(structured.control).toMatchObject({ identifier: a.control, name: 'Tests pass', archived: false });
      expect(structured.decisions).toEqual([
        expect.objectContaining({ evaluation_id: a.evaluationId, status: 'completed', allow: true, policy_digest: expect.stringMatching(/^sha256:/), trails: [expect.objectContaining({ flow: a.flow, trail: a.trail })] }),
      ]);
      expect(structured.coverage).toEqual({ decisions: 1, allowed: 1, denied: 0, other: 0, flows: [a.flow], trails: [{ flow: a.flow, trail: a.trail }], complete: true });
      // Where it is enforced, from the coverage route: the world's one environment does not require it.
      expect(structured.environment_coverage).toEqual({
        total: 1,
        covered: 0,
        coverage_percent: 0,
        environments: [{ name: a.env, type: 'K8S', covered: false, policies: [] }],
        complete: true,
      });
      expect(structured.citations.map((c: { url: string }) => c.url)).toContain(`${cited()}/api/v2/controls/${a.org.name}/${a.control}/coverage?per_page=100`);

      // An environment whose attached policy requires a decision for the control covers it, and comes first.
      const as = (req: import('supertest').Test) => req.set('Authorization', `Bearer ${a.org.adminKey}`);
      const guarded = `${a.env}-guarded`;
      await as(t.http().put(`/api/v2/environments/${a.org.name}`)).send({ name: guarded, type: 'K8S' }).expect(201);
      await as(t.http().put(`/api/v2/policies/${a.org.name}`))
        .field('payload', JSON.stringify({ name: `${a.policyName}-decided`, description: 'decided by the control' }))
        .attach('policy_file', Buffer.from(`_schema: https://docs.kosli.com/schemas/policy/v1\nartifacts:\n  provenance:\n    required: true\n  attestations:\n    - type: decision\n      for_control: ${a.control}\n`), 'p.yaml')
        .expect(201);
      await as(t.http().post(`/api/v2/environments/${a.org.name}/${guarded}/policies`)).send({ policy_names: [`${a.policyName}-decided`] }).expect(200);
      const enforced = (await run('control_decisions', { control: a.control })).structured.environment_coverage;
      expect(enforced).toEqual({
        total: 2,
        covered: 1,
        coverage_percent: 50,
        environments: [
          { name: guarded, type: 'K8S', covered: true, policies: [`${a.policyName}-decided`] },
          { name: a.env, type: 'K8S', covered: false, policies: [] },
        ],
        complete: true,
      });
      const unknown = await run('control_decisions', { control: 'NO-SUCH-CONTROL' });
      expect(unknown.isError).toBe(true);
      expect(unknown.text).toMatch(/^The Veritrail API answered 404/);
    });

    it("answers an evaluation's policy and digests, and replays it", async () => {
      const { structured } = await run('explain_evaluation', { id: a.evaluationId, replay: true });
      expect(structured).toMatchObject({ id: a.evaluationId, status: 'completed', control: a.control, result: { allow: true }, error: null, engine: 'veritrail-rego' });
      expect(structured.policy_digest).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(structured.replay).toEqual({ identical: true, input_digest: { recorded: structured.input_digest, replayed: structured.input_digest }, result_digest: { recorded: structured.result_digest, replayed: structured.result_digest } });
      expect(structured.policy).toEqual({
        digest: structured.policy_digest,
        files: [{ path: 'policy.rego', sha256: sha256('package policy\n\nallow := true\n'), length: 30, text: 'package policy\n\nallow := true\n', truncated: false }],
        complete: true,
      });
      expect(structured.citations.map((c: { url: string }) => c.url)).toEqual([
        `${cited()}/api/v2/evaluations/${a.org.name}/${a.evaluationId}`,
        `${cited()}/api/v2/evaluations/${a.org.name}/${a.evaluationId}/policy`,
        `${cited()}/api/v2/evaluations/${a.org.name}/${a.evaluationId}/replay`,
      ]);
      const failing = await t.http().post(`/api/v2/evaluations/${a.org.name}`).set('Authorization', `Bearer ${a.org.adminKey}`)
        .send({ context: { trails: [{ flow: a.flow, trail: a.trail }] }, policy: { files: { 'policy.rego': 'package policy\n\nallow := \n' } } })
        .expect(201);
      const failed = (await run('explain_evaluation', { id: failing.body.id })).structured;
      expect(failed).toMatchObject({ status: 'failed', result: null, error: { kind: 'policy_parse_error' } });
      expect(failed.policy.files.map((f: { path: string; text: string }) => [f.path, f.text])).toEqual([['policy.rego', 'package policy\n\nallow := \n']]);

      // A bundle with a large data file: its text is cut to the answer's bound, its digest whole, and it says so.
      const data = JSON.stringify({ pad: 'x'.repeat(40_000) });
      const large = await t.http().post(`/api/v2/evaluations/${a.org.name}`).set('Authorization', `Bearer ${a.org.adminKey}`)
        .send({ context: { trails: [{ flow: a.flow, trail: a.trail }] }, policy: { files: { 'policy.rego': 'package policy\n\nallow := true\n', 'pad/data.json': data } } })
        .expect(201);
      const bounded = (await run('explain_evaluation', { id: large.body.id })).structured.policy;
      expect(bounded.complete).toBe(false);
      const [padFile, regoFile] = bounded.files;
      expect([padFile.path, padFile.sha256, padFile.length, padFile.truncated]).toEqual(['pad/data.json', sha256(data), data.length, true]);
      expect(data.startsWith(padFile.text)).toBe(true);
      expect(padFile.text.length + regoFile.text.length).toBeLessThanOrEqual(32_000);
      expect(regoFile.path).toBe('policy.rego');
      const unknown = await run('explain_evaluation', { id: '00000000-0000-4000-8000-000000000000' });
      expect(unknown.isError).toBe(true);
      expect(unknown.text).toMatch(/^The Veritrail API answered 404/);
    });
  });

  describe('every tool', () => {
    it('answers each question of the issue with the records it rests on, and each cited record reads back to the cited bytes', async () => {
      const questions: Array<[string, Record<string, unknown>]> = [
        ['find_artifact', { query: a.fingerprint }],
        ['explain_trail_compliance', { flow: a.flow, trail: a.failingTrail }],
        ['check_deployment_gate', { fingerprint: a.failingFingerprint, environment: a.env }],
        ['environment_now', { environment: a.env }],
        ['environment_changes', { environment: a.env, from: '1', to: '2' }],
        ['list_non_compliant', { kind: 'trails', from: '2000-01-01T00:00:00Z' }],
        ['control_decisions', { control: a.control }],
        ['explain_evaluation', { id: a.evaluationId }],
        ['log_inclusion_proof', { id: a.attestationId }],
      ];
      expect(questions.map(([name]) => name).sort()).toEqual(TOOL_NAMES);
      for (const [name, args] of questions) {
        const { structured, isError } = await run(name, args);
        expect([name, Boolean(isError)]).toEqual([name, false]);
        const cites: Array<{ url: string; sha256: string }> = structured.citations;
        expect([name, cites.length > 0]).toEqual([name, true]);
        for (const c of cites) {
          expect(c.url.startsWith(`${cited()}/api/v2/`)).toBe(true);
          // The log's checkpoint moves on as the log grows, and a gate answer is computed when asked (it carries
          // its evaluated_at): their bytes are not kept. Every stored record reads back byte for byte.
          if (c.url.includes('/log/') || c.url.includes('/asserts/')) continue;
          const again = await fetch(c.url.replace(cited(), t.baseUrl), { headers: { Authorization: `Bearer ${a.org.adminKey}` } });
          expect([name, c.url, again.status]).toEqual([name, c.url, 200]);
          expect([name, c.url, createHash('sha256').update(Buffer.from(await again.arrayBuffer())).digest('hex')]).toEqual([name, c.url, c.sha256]);
        }
      }
    });
  });

  describe('log_inclusion_proof', () => {
    it("proves an attestation's inclusion in the org's evidence log", async () => {
      const first = (await run('log_inclusion_proof', { id: a.attestationId })).structured;
      expect(leafHash(Buffer.from(first.leaf)).toString('base64')).toBe(first.leaf_hash);
      expect(JSON.parse(first.leaf)).toMatchObject({ kind: 'attestation', id: a.attestationId });
      if (first.index === null) {
        // Logged, not yet sequenced (the log may sequence in the background): no proof yet, and the answer says so.
        expect(first).toMatchObject({ tree_size: null, audit_path: [], checkpoint_covers_record: false, note: expect.stringContaining('not yet sequenced') });
      }
      // A signed checkpoint covers it once the log has signed one: the audit path then leads to its root.
      const proved = await waitFor(
        async () => {
          const answer = (await run('log_inclusion_proof', { id: a.attestationId })).structured;
          return answer.checkpoint_covers_record ? answer : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 250, what: 'a signed checkpoint covering the attestation' },
      );
      const checkpoint = parseCheckpoint(proved.checkpoint.split('\n\n')[0] + '\n');
      expect(checkpoint.size).toBe(proved.tree_size);
      const root = rootFromInclusionProof(proved.index, proved.tree_size, Buffer.from(proved.leaf_hash, 'base64'), proved.audit_path.map((p: string) => Buffer.from(p, 'base64')));
      expect(root && Buffer.from(root).equals(Buffer.from(checkpoint.rootHash))).toBe(true);
    });

    it('passes on the API\'s message for a record that is not logged', async () => {
      const missing = await run('log_inclusion_proof', { id: '00000000-0000-4000-8000-000000000000' });
      expect(missing.isError).toBe(true);
      expect(missing.text).toMatch(/^The Veritrail API answered 404/);
    });
  });

  describe('resources', () => {
    it('reads trails, artifacts, snapshots and policies whole by their veritrail:// URIs', async () => {
      const templates = (await admin.listResourceTemplates()).resourceTemplates.map((r) => r.uriTemplate).sort();
      expect(templates).toEqual([
        'veritrail://{org}/artifacts/{flow}/{fingerprint}',
        'veritrail://{org}/policies/{policy}',
        'veritrail://{org}/snapshots/{environment}/{snapshot}',
        'veritrail://{org}/trails/{flow}/{trail}',
      ]);
      const listed = (await admin.listResources()).resources.map((r) => r.uri);
      expect(listed).toEqual(expect.arrayContaining([`veritrail://${a.org.name}/policies/${a.policyName}`, `veritrail://${a.org.name}/snapshots/${a.env}/latest`]));
      const read = async (uri: string) => JSON.parse(((await admin.readResource({ uri })).contents[0] as { text: string }).text);
      expect(await read(`veritrail://${a.org.name}/trails/${a.flow}/${a.failingTrail}`)).toMatchObject({ name: a.failingTrail, compliance_state: 'NON-COMPLIANT' });
      expect(await read(`veritrail://${a.org.name}/artifacts/${a.flow}/${a.fingerprint}`)).toMatchObject({ fingerprint: a.fingerprint, filename: a.artifactName });
      expect(await read(`veritrail://${a.org.name}/snapshots/${a.env}/1`)).toMatchObject({ index: 1, environment: a.env });
      const policy = await admin.readResource({ uri: `veritrail://${a.org.name}/policies/${a.policyName}` });
      expect(policy.contents[0]).toMatchObject({ mimeType: 'application/json', _meta: { api_url: `${cited()}/api/v2/policies/${a.org.name}/${a.policyName}`, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) } });
      await expect(admin.readResource({ uri: `veritrail://${a.org.name}/trails/${a.flow}/no-such-trail` })).rejects.toThrow(/The Veritrail API answered 404/);
      await expect(admin.readResource({ uri: `veritrail://${a.org.name}/nothing/here` })).rejects.toThrow(/Unknown resource/);
    });
  });

  describe('a reader', () => {
    it('reads through every read tool, and gets the API\'s refusal where the API wants more than reading', async () => {
      expect((await run('explain_trail_compliance', { flow: a.flow, trail: a.failingTrail }, reader)).structured.is_compliant).toBe(false);
      expect((await run('check_deployment_gate', { fingerprint: a.fingerprint, environment: a.env }, reader)).structured.allowed).toBe(true);
      expect((await run('explain_evaluation', { id: a.evaluationId }, reader)).structured.replay).toBeNull();
      const replay = await run('explain_evaluation', { id: a.evaluationId, replay: true }, reader);
      expect(replay.isError).toBe(true);
      expect(replay.text).toBe("The Veritrail API answered 403: You don't have permission to access this resource");
    });
  });

  describe("another organization's data", () => {
    it("stays out of reach by name, fingerprint, id or URI from this org's server", async () => {
      const asks: [string, Record<string, unknown>][] = [
        ['find_artifact', { query: b.fingerprint }],
        ['find_artifact', { query: b.artifactName }],
        ['explain_trail_compliance', { flow: b.flow, trail: b.failingTrail }],
        ['check_deployment_gate', { fingerprint: b.failingFingerprint, environment: b.env }],
        ['environment_now', { environment: b.env }],
        ['environment_changes', { environment: b.env, from: '1', to: '2' }],
        ['control_decisions', { control: b.control }],
        ['explain_evaluation', { id: b.evaluationId }],
        ['log_inclusion_proof', { id: b.attestationId }],
      ];
      for (const [tool, args] of asks) {
        const answer = await run(tool, args);
        if (tool === 'find_artifact') expect(answer.structured).toMatchObject({ matched_by: 'nothing', artifacts: [] });
        else expect([tool, answer.isError, answer.text]).toEqual([tool, true, expect.stringMatching(/^The Veritrail API answered 404/)]);
        // A not-found message may repeat what was asked; nothing else of the other org shows.
        const shown = secretsOf(b).filter((s) => !JSON.stringify(args).includes(s) && JSON.stringify(answer).includes(s));
        expect([tool, shown]).toEqual([tool, []]);
      }
      // Lists of this org show nothing of the other.
      const lists = [await run('list_non_compliant', { kind: 'trails', from: '2000-01-01T00:00:00Z' }), await run('list_non_compliant', { kind: 'environments', from: '2000-01-01T00:00:00Z' })];
      for (const list of lists) expect(secretsOf(b).filter((s) => JSON.stringify(list).includes(s))).toEqual([]);
      await expect(admin.readResource({ uri: `veritrail://${b.org.name}/trails/${b.flow}/${b.trail}` })).rejects.toThrow(`This server answers for organization '${a.org.name}'`);
      // Nor by climbing out of this org's paths with '..' (a URL collapses it, encoded or not).
      await expect(admin.readResource({ uri: `veritrail://${a.org.name}/trails/../${b.org.name}` })).rejects.toThrow(/Unknown resource/);
      await expect(admin.readResource({ uri: `veritrail://${a.org.name}/trails/%2e%2e/${b.org.name}` })).rejects.toThrow(/Unknown resource/);
      const climbed = await run('explain_trail_compliance', { flow: '..', trail: b.org.name });
      expect([climbed.isError, climbed.text]).toEqual([true, "Invalid arguments for explain_trail_compliance: '..' is not a name"]);
    });

    it("is refused to a key that is not a member of the org", async () => {
      if (connect === overHttp) {
        // The org guard answers before any MCP message is read.
        await expect(connect(t.baseUrl, b.org.name, a.org.adminKey)).rejects.toThrow(/Error POSTing to endpoint: .*You don't have permission to access this resource/);
      } else {
        const foreign = await open(b.org.name, a.org.adminKey);
        const answer = await call(foreign, tools, 'explain_trail_compliance', { flow: b.flow, trail: b.trail });
        expect(answer.isError).toBe(true);
        expect(answer.text).toBe("The Veritrail API answered 403: You don't have permission to access this resource");
        await expect(foreign.readResource({ uri: `veritrail://${b.org.name}/trails/${b.flow}/${b.trail}` })).rejects.toThrow(/403/);
      }
    });
  });
});
