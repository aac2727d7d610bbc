import { createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { evidenceClient } from '../support/trail-helpers';
import { digest, envApi, pod } from '../support/env-helpers';

const W1 = digest('web-1');
const W2 = digest('web-2');
const D1 = digest('db-1');
const C1 = digest('cache-1');

/** `@{...}` forms of an instant given as Unix seconds with microseconds (as snapshots' `timestamp` are). */
function instant(ts: number) {
  const micros = Math.round(ts * 1e6);
  const seconds = Math.floor(micros / 1e6);
  const fraction = String(micros % 1e6).padStart(6, '0');
  return { unix: `@{${seconds}.${fraction}}`, rfc3339: `@{${new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, `.${fraction}Z`)}}` };
}

describe('snapshots', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  async function env(type = 'K8S', extra: Record<string, unknown> = {}) {
    const org = await createOrg(t);
    const api = envApi(t, org);
    await api.create({ name: 'prod', type, description: '', ...extra }).expect(201);
    return { org, api };
  }
  const events = async (org: TestOrg) =>
    (await t.dataSource.query(
      `SELECT e.type, e.subject, e.payload FROM outbox_events e JOIN organizations o ON o.id = e.org_id WHERE o.name = $1 ORDER BY e.id`,
      [org.name],
    )) as Array<{ type: string; subject: Record<string, any>; payload: Record<string, any> }>;

  it('are numbered from 1 and addressed with the trail-moment grammar; malformed is 400, nothing selected is 404', async () => {
    const { api } = await env();
    for (const d of [W1, W2, D1]) await api.report('prod', 'K8S', { artifacts: [pod('a', { web: d })] }).expect(201);
    const ts = [1, 2, 3].map(async (n) => (await api.snapshot('prod', String(n)).expect(200)).body.timestamp as number);
    const [t1, t2, t3] = await Promise.all(ts);
    expect(t1).toBeLessThan(t2);
    const expectations: Array<[string, number | 400 | 404]> = [
      ['1', 1],
      ['#2', 2],
      ['3', 3],
      ['-1', 3],
      ['-3', 1],
      ['~0', 3],
      ['~2', 1],
      ['latest', 3],
      ['@{now}', 3],
      [instant(t2).unix, 2],
      [instant(t2).rfc3339, 2],
      [instant(t1).unix, 1],
      [instant(t3).unix, 3],
      ['@{1.day.ago}', 404],
      ['@{2020-01-01T00:00:00}', 404],
      ['4', 404],
      ['-4', 404],
      ['~3', 404],
      ['99999999999999', 404],
      ['0', 400],
      ['#0', 400],
      ['-0', 400],
      ['abc', 400],
      ['@{yesterday}', 400],
      ['@{2024-13-01T00:00:00}', 400],
    ];
    for (const [expression, expected] of expectations) {
      const res = await api.snapshot('prod', expression);
      if (expected === 400) {
        expect({ expression, status: res.status, keys: Object.keys(res.body.errors ?? {}) }).toEqual({ expression, status: 400, keys: ['snapshot_expression'] });
      } else if (expected === 404) {
        expect({ expression, status: res.status, message: res.body.message }).toEqual({
          expression,
          status: 404,
          message: `Snapshot '${expression}' not found in environment 'prod'`,
        });
      } else {
        expect({ expression, status: res.status, index: res.body.index }).toEqual({ expression, status: 200, index: expected });
      }
    }
    await api.snapshot('nope', '1').expect(404);
    // The CLI's `kosli get snapshot prod` asks for -1; `prod#2` for %232; `prod~1` for ~1.
    expect((await api.snapshot('prod', '-1').expect(200)).body).toMatchObject({ index: 3, is_latest: true, next_snapshot_timestamp: null });
    expect((await api.snapshot('prod', '#2').expect(200)).body).toMatchObject({ index: 2, is_latest: false, next_snapshot_timestamp: t3 });
  });

  it('a snapshot shows every artifact with the fields the CLI reads (never null), and what exited since the last one', async () => {
    const { api } = await env('K8S', { include_scaling: true });
    await api.report('prod', 'K8S', { artifacts: [pod('a', { web: W1, db: D1 }), pod('b', { web: W1 }, { creationTimestamp: 1700000500 })] }).expect(201);
    await api.report('prod', 'K8S', { artifacts: [pod('a', { web: W1 }), pod('c', { cache: C1 })] }).expect(201);
    const s1 = (await api.snapshot('prod', '1').expect(200)).body;
    expect(s1).toMatchObject({ index: 1, type: 'K8S', compliant: true, applied_policies: [], artifact_compliance_count: { true: 0, false: 0, null: 2 } });
    const web = s1.artifacts.find((a: any) => a.name === 'web');
    expect(web).toMatchObject({
      fingerprint: W1,
      compliant: true,
      has_provenance: false,
      reasons_for_incompliance: ['no provenance: no trail reported this fingerprint'],
      deployments: [],
      policy_decisions: [],
      flows: [],
      flow_name: '',
      git_commit: '',
      instance_count: 2,
      annotation: { type: 'started', was: 0, now: 2 },
      pods: { a: { namespace: 'default', creationTimestamp: 1700000000, owners: [expect.objectContaining({ kind: 'ReplicaSet' })] }, b: expect.any(Object) },
    });
    expect(web.creationTimestamp.sort()).toEqual([1700000000, 1700000500]);
    const s2 = (await api.snapshot('prod', '2').expect(200)).body;
    expect(s2.artifacts.map((a: any) => [a.name, a.annotation.type, a.annotation.was, a.annotation.now, a.creationTimestamp.length])).toEqual([
      ['cache', 'started', 0, 1, 1],
      ['db', 'exited', 1, 0, 0],
      ['web', 'scaled', 2, 1, 1],
    ]);
  });

  it('each artifact is matched to the trails that reported its fingerprint; provenance is flagged, and required where the environment says so', async () => {
    const { org, api } = await env();
    await api.create({ name: 'strict', type: 'K8S', description: '', require_provenance: true }).expect(201);
    const c = evidenceClient(t, org);
    await c.createFlow('build').expect(201);
    await c.beginTrail('build', { name: 'v1' }).expect(201);
    await c.reportArtifact('build', { fingerprint: W1, filename: 'acme/web:1', trail_name: 'v1', template_reference_name: 'web', git_commit: 'a'.repeat(40), commit_url: 'https://git/c' }).expect(201);
    await c.createFlow('release').expect(201);
    await c.beginTrail('release', { name: 'r1' }).expect(201);
    await c.reportArtifact('release', { fingerprint: W1, filename: 'acme/web:1', trail_name: 'r1', template_reference_name: 'web' }).expect(201);
    await c.attest('release', 'r1', { attestation_name: 'approval', is_compliant: false }).expect(201);
    await c.beginTrail('build', { name: 'v2' }).expect(201);
    await c.reportArtifact('build', { fingerprint: D1, filename: 'acme/db:1', trail_name: 'v2', template_reference_name: 'db' }).expect(201);

    const body = { artifacts: [pod('a', { web: W1, db: D1, unknown: C1 })] };
    await api.report('prod', 'K8S', body).expect(201);
    const snap = (await api.snapshot('prod', 'latest').expect(200)).body;
    expect(snap).toMatchObject({ compliant: false, artifact_compliance_count: { true: 1, false: 1, null: 1 } });
    const byName = Object.fromEntries(snap.artifacts.map((a: any) => [a.name, a]));
    expect(byName.web).toMatchObject({
      compliant: false,
      has_provenance: true,
      reasons_for_incompliance: ["trail 'r1' of flow 'release' is NON-COMPLIANT"],
      flow_name: 'build',
      git_commit: 'a'.repeat(40),
      commit_url: 'https://git/c',
      flows: [
        expect.objectContaining({ flow_name: 'build', trail_name: 'v1', template_reference_name: 'web', trail_compliance_status: 'COMPLIANT', artifact_compliance_in_flow: true }),
        expect.objectContaining({ flow_name: 'release', trail_name: 'r1', trail_compliance_status: 'NON-COMPLIANT', artifact_compliance_in_flow: false }),
      ],
    });
    expect(byName.db).toMatchObject({ compliant: true, has_provenance: true, reasons_for_incompliance: [] });
    expect(byName.unknown).toMatchObject({ compliant: true, has_provenance: false });
    expect((await api.get('prod').expect(200)).body.state).toBe(false);

    await api.report('strict', 'K8S', { artifacts: [pod('a', { db: D1, unknown: C1 })] }).expect(201);
    const strict = (await api.snapshot('strict', 'latest').expect(200)).body;
    expect(strict).toMatchObject({ compliant: false, artifact_compliance_count: { true: 1, false: 1, null: 0 } });
    expect(strict.artifacts.find((a: any) => a.name === 'unknown')).toMatchObject({
      compliant: false,
      has_provenance: false,
      reasons_for_incompliance: ['no provenance: no trail reported this fingerprint', 'the environment requires provenance'],
    });
  });

  it("a snapshot's compliance is fixed when it is taken: later evidence shows in the next snapshot, not in this one", async () => {
    const { org, api } = await env();
    const c = evidenceClient(t, org);
    await c.createFlow('build').expect(201);
    await c.beginTrail('build', { name: 'v1' }).expect(201);
    await c.reportArtifact('build', { fingerprint: W1, filename: 'web', trail_name: 'v1', template_reference_name: 'web' }).expect(201);
    await api.report('prod', 'K8S', { artifacts: [pod('a', { web: W1 })] }).expect(201);
    expect((await api.snapshot('prod', '1').expect(200)).body).toMatchObject({ compliant: true, artifacts: [expect.objectContaining({ compliant: true })] });

    // The trail turns non-compliant after the report.
    await c.attest('build', 'v1', { attestation_name: 'scan', is_compliant: false }).expect(201);
    expect((await c.getTrail('build', 'v1').expect(200)).body.compliance_status.status).toBe('NON-COMPLIANT');
    expect((await api.snapshot('prod', '1').expect(200)).body).toMatchObject({ compliant: true, artifacts: [expect.objectContaining({ compliant: true })] });
    // An unchanged report makes no snapshot, so nothing is re-evaluated either.
    await api.report('prod', 'K8S', { artifacts: [pod('a', { web: W1 })] }).expect(200);
    expect((await api.get('prod').expect(200)).body).toMatchObject({ state: true, last_snapshot: 1 });

    // The next snapshot evaluates every artifact again, the one that did not change included.
    await api.report('prod', 'K8S', { artifacts: [pod('a', { web: W1 }), pod('b', { db: D1 })] }).expect(201);
    const s2 = (await api.snapshot('prod', '2').expect(200)).body;
    expect(s2.compliant).toBe(false);
    expect(s2.artifacts.find((a: any) => a.name === 'web')).toMatchObject({ compliant: false, annotation: { type: 'unchanged', was: 1, now: 1 } });
    expect((await api.snapshot('prod', '1').expect(200)).body.compliant).toBe(true);
    expect((await api.get('prod').expect(200)).body.state).toBe(false);
    const changed = (await events(org)).filter((e) => e.type === 'environment.compliance_changed');
    expect(changed.map((e) => [e.payload.snapshot, e.payload.was, e.payload.compliant])).toEqual([
      [1, null, true],
      [2, true, false],
    ]);
  });

  it('events in the outbox with each snapshot: created, started, exited, scaled (with include_scaling only), compliance changed; none for an unchanged report', async () => {
    const { org, api } = await env('K8S', { include_scaling: true });
    await api.report('prod', 'K8S', { artifacts: [pod('a', { web: W1 }), pod('b', { web: W1, db: D1 })] }).expect(201);
    await api.report('prod', 'K8S', { artifacts: [pod('a', { web: W1 })] }).expect(201);
    await api.report('prod', 'K8S', { artifacts: [pod('a', { web: W1 })] }).expect(200);
    await api.report('prod', 'K8S', { artifacts: [pod('a', { web: W2 })] }).expect(201);
    const got = await events(org);
    expect(got.map((e) => `${e.payload.snapshot} ${e.type} ${e.subject.artifact_name ?? ''}`.trim())).toEqual([
      '1 snapshot.created',
      '1 artifact.started db',
      '1 artifact.started web',
      '1 environment.compliance_changed',
      '2 snapshot.created',
      '2 artifact.exited db',
      '2 artifact.scaled web',
      '3 snapshot.created',
      '3 artifact.started web',
      '3 artifact.exited web',
    ]);
    expect(got[0]).toMatchObject({
      subject: { environment: 'prod', environment_type: 'K8S', logical_environments: [] },
      payload: { snapshot: 1, compliant: true, artifact_count: 2, instance_count: 3, started: 2, exited: 0, scaled: 0, snapshot_url: expect.stringContaining('/environments/prod/snapshots/1') },
    });
    expect(got[6]).toMatchObject({ type: 'artifact.scaled', subject: { artifact_name: 'web', fingerprint: W1 }, payload: { was: 2, now: 1, instance_count: 1 } });
    expect(got[8].payload).toMatchObject({ artifact_name: 'web', fingerprint: W2, instance_count: 1, compliant: true, has_provenance: false, flows: [] });

    // Without include_scaling a count change made with another change is recorded, but is no event.
    const plain = await env('K8S');
    await plain.api.report('prod', 'K8S', { artifacts: [pod('a', { web: W1 }), pod('b', { web: W1 })] }).expect(201);
    await plain.api.report('prod', 'K8S', { artifacts: [pod('a', { web: W1, db: D1 })] }).expect(201);
    expect((await events(plain.org)).map((e) => e.type).filter((type) => type === 'artifact.scaled')).toEqual([]);
    expect((await plain.api.snapshot('prod', '2').expect(200)).body.artifacts.find((a: any) => a.name === 'web').annotation).toEqual({ type: 'scaled', was: 2, now: 1 });
  });

  it('storage grows with what changed: one changed artifact of fifty adds one run, and ends one', async () => {
    const { org, api } = await env();
    const images = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`img-${i}`, digest(`img-${i}`)]));
    const pods = (over: Record<string, string>) => ({ artifacts: Array.from({ length: 10 }, (_, i) => pod(`p${i}`, { ...images, ...over })) });
    await api.report('prod', 'K8S', pods({})).expect(201);
    const runs = async () =>
      (
        await t.dataSource.query(
          `SELECT count(*)::int AS total, count(*) FILTER (WHERE ended_snapshot IS NULL)::int AS open
           FROM environment_artifact_runs r JOIN organizations o ON o.id = r.org_id WHERE o.name = $1`,
          [org.name],
        )
      )[0];
    expect(await runs()).toEqual({ total: 50, open: 50 });
    await api.report('prod', 'K8S', pods({ 'img-7': digest('img-7-v2') })).expect(201);
    expect(await runs()).toEqual({ total: 51, open: 50 });
    const snap = (await api.snapshot('prod', '2').expect(200)).body;
    expect(snap.artifacts).toHaveLength(51);
    const changes = snap.artifacts.filter((a: any) => a.annotation.type !== 'unchanged').map((a: any) => `${a.annotation.type} ${a.name} ${a.fingerprint}`);
    expect(changes.sort()).toEqual([`exited img-7 ${digest('img-7')}`, `started img-7 ${digest('img-7-v2')}`]);
    expect((await api.snapshot('prod', '1').expect(200)).body.artifacts.every((a: any) => a.annotation.type === 'started' && a.instance_count === 10)).toBe(true);
  });

  it('GET /snapshots/{org}/{env}: a plain array, newest first, paged, with interval and reverse', async () => {
    const { api } = await env();
    await api.create({ name: 'all', type: 'logical', description: '' }).expect(201);
    for (let i = 1; i <= 5; i++) await api.report('prod', 'K8S', { artifacts: [pod('a', { web: digest(`v${i}`) })] }).expect(201);
    const all = (await api.snapshots('prod').expect(200)).body;
    expect(all.map((s: any) => s.index)).toEqual([5, 4, 3, 2, 1]);
    expect(all[0]).toEqual({
      index: 5,
      from: expect.any(Number),
      to: 0,
      duration: expect.any(Number),
      compliant: true,
      artifact_count: 1,
      instance_count: 1,
      html_url: expect.stringContaining('/environments/prod/snapshots/5'),
    });
    expect(all[1].to).toBe(all[0].from);
    expect(all[1].duration).toBeCloseTo(all[0].from - all[1].from, 5);
    const indexes = async (query: Record<string, unknown>) => (await api.snapshots('prod', query).expect(200)).body.map((s: any) => s.index);
    expect(await indexes({ page: 2, per_page: 2 })).toEqual([3, 2]);
    expect(await indexes({ page: 4, per_page: 2 })).toEqual([]);
    expect(await indexes({ reverse: 'true' })).toEqual([1, 2, 3, 4, 5]);
    expect(await indexes({ reverse: 'False' })).toEqual([5, 4, 3, 2, 1]);
    expect(await indexes({ interval: '2..4' })).toEqual([4, 3, 2]);
    expect(await indexes({ interval: '~1..NOW' })).toEqual([5, 4]);
    expect(await indexes({ interval: '4..2' })).toEqual([]);
    expect(await indexes({ interval: '1..NOW', page: 1, per_page: 15, reverse: 'false' })).toEqual([5, 4, 3, 2, 1]);
    expect((await api.snapshots('prod', { interval: '1' }).expect(400)).body.errors).toHaveProperty(['query.interval']);
    expect((await api.snapshots('prod', { reverse: 'maybe' }).expect(400)).body.errors).toHaveProperty(['query.reverse']);
    await api.snapshots('nope').expect(404);
    expect((await api.snapshots('all').expect(400)).body.message).toContain('logical');
  });

  it('GET /environments/{org}/{env}/diff?from=&to=: added, removed, changed', async () => {
    const { api } = await env('K8S', { include_scaling: true });
    await api.report('prod', 'K8S', { artifacts: [pod('a', { web: W1, db: D1 }), pod('b', { web: W1 })] }).expect(201);
    await api.report('prod', 'K8S', { artifacts: [pod('a', { web: W2, db: D1 }), pod('b', { db: D1, cache: C1 })] }).expect(201);
    const diff = (await api.diff('prod', { from: '1', to: 'latest' }).expect(200)).body;
    expect(diff).toMatchObject({ environment: 'prod', from: { expression: '1', index: 1 }, to: { expression: 'latest', index: 2 } });
    const names = (list: any[]) => list.map((a) => `${a.name}:${a.fingerprint.slice(0, 6)}:${a.from_instance_count}->${a.to_instance_count}`);
    expect(names(diff.added)).toEqual([`cache:${C1.slice(0, 6)}:0->1`, `web:${W2.slice(0, 6)}:0->1`]);
    expect(names(diff.removed)).toEqual([`web:${W1.slice(0, 6)}:2->0`]);
    expect(names(diff.changed)).toEqual([`db:${D1.slice(0, 6)}:1->2`]);
    // Defaults: from the one before the latest, to the latest.
    expect((await api.diff('prod').expect(200)).body).toEqual({ ...diff, from: { ...diff.from, expression: '~1' } });
    const reversed = (await api.diff('prod', { from: '2', to: '1' }).expect(200)).body;
    expect(names(reversed.removed)).toEqual(names(diff.added).map((n) => n.replace(/(\d+)->(\d+)$/, (_, a, b) => `${b}->${a}`)));
    expect((await api.diff('prod', { from: 'x', to: '@{bad}' }).expect(400)).body.errors).toEqual({
      'query.from': expect.any(String),
      'query.to': expect.any(String),
    });
    expect((await api.diff('prod', { from: '7' }).expect(404)).body.message).toBe("Snapshot '7' not found in environment 'prod'");
    await api.diff('nope', { from: '1' }).expect(404);
  });

  it('GET /env-diff/{org}?snappish1=&snappish2= answers `kosli diff snapshots`, within one environment or across two', async () => {
    const { api } = await env('K8S', { include_scaling: true });
    await api.create({ name: 'staging', type: 'K8S', description: '' }).expect(201);
    await api.create({ name: 'all', type: 'logical', description: '' }).expect(201);
    await api.report('prod', 'K8S', { artifacts: [pod('a', { web: W1, db: D1 }), pod('b', { web: W1 })] }).expect(201);
    await api.report('prod', 'K8S', { artifacts: [pod('a', { web: W2, db: D1 }), pod('b', { db: D1, cache: C1 })] }).expect(201);
    await api.report('staging', 'K8S', { artifacts: [pod('s', { web: W2 })] }).expect(201);
    const res = (await api.envDiff('prod#1', 'prod').expect(200)).body;
    expect(res.snappish1).toEqual({
      snapshot_id: 'prod#1',
      artifacts: [{ fingerprint: W1, flow: '', name: 'web', commit_url: '', most_recent_timestamp: 1700000000, instance_count: 2, s1_instance_count: 2, s2_instance_count: 0, pods: ['a', 'b'] }],
    });
    expect(res.snappish2.snapshot_id).toBe('prod#2');
    expect(res.snappish2.artifacts.map((a: any) => a.name)).toEqual(['cache', 'web']);
    expect(res.changed.artifacts).toEqual([expect.objectContaining({ name: 'db', instance_count: 0, s1_instance_count: 1, s2_instance_count: 2 })]);
    expect(res['not-changed'].artifacts).toEqual([]);
    const across = (await api.envDiff('prod~0', 'staging').expect(200)).body;
    expect(across.snappish2).toEqual({ snapshot_id: 'staging#1', artifacts: [] });
    expect(across['not-changed'].artifacts.map((a: any) => a.name)).toEqual(['web']);
    expect((await api.envDiff('prod#1', 'prod@{now}').expect(200)).body.snappish2.snapshot_id).toBe('prod#2');
    expect((await api.envDiff('prod#0', 'prod~x').expect(400)).body.errors).toEqual({ 'query.snappish1': expect.any(String), 'query.snappish2': expect.any(String) });
    expect((await api.envDiff('prod#1~1', '#2').expect(400)).body.errors).toEqual({
      'query.snappish1': "only one of '@', '~' or '#' may appear",
      'query.snappish2': 'the environment name is missing',
    });
    expect((await api.envDiff('nope', 'prod').expect(404)).body.message).toBe("Environment 'nope' not found");
    expect((await api.envDiff('prod#9', 'prod').expect(404)).body.message).toBe("Snapshot 'prod#9' not found");
    await api.envDiff('all', 'prod').expect(400);
  });
});
