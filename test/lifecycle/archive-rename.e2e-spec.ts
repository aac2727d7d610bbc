import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { digest, envApi, pod } from '../support/env-helpers';
import { evidenceClient, fingerprint } from '../support/trail-helpers';
import { waitFor } from '../support/wait';

describe('archive and rename flows and environments', () => {
  let t: TestApp;
  let org: TestOrg;
  const as = () => bearer(org.adminKey);

  beforeAll(async () => {
    t = await startTestApp();
  });
  beforeEach(async () => {
    org = await createOrg(t);
  });
  afterAll(() => t.close());

  it('an archived flow is hidden from the list unless asked, stays readable, and refuses new evidence on every write path', async () => {
    const c = evidenceClient(t, org);
    await c.reportArtifact('old-ci', { fingerprint: fingerprint('a'), filename: 'app', trail_name: 't1', template_reference_name: 'app' }).expect(201);
    await c.attest('old-ci', 't1', { attestation_name: 'tests', is_compliant: true }).expect(201);
    await c.createFlow('live-ci').expect(201);

    const archived = await t.http().put(`/api/v2/flows/${org.name}/old-ci/archive`).set(...as()).expect(200);
    expect(archived.body).toBe("Flow 'old-ci' was archived");
    await t.http().put(`/api/v2/flows/${org.name}/old-ci/archive`).set(...as()).expect(200); // again: no change

    const listed = await t.http().get(`/api/v2/flows/${org.name}`).set(...as()).expect(200);
    expect(listed.body.map((f: any) => f.name)).toEqual(['live-ci']);
    const asked = await t.http().get(`/api/v2/flows/${org.name}`).query({ archived: 'true' }).set(...as()).expect(200);
    expect(asked.body.map((f: any) => [f.name, f.archived])).toEqual([['old-ci', true]]);
    const flow = await t.http().get(`/api/v2/flows/${org.name}/old-ci`).set(...as()).expect(200);
    expect(flow.body).toMatchObject({ name: 'old-ci', archived: true });
    expect(typeof flow.body.archived_at).toBe('number');
    await c.getTrail('old-ci', 't1').expect(200);
    expect((await t.http().get(`/api/v2/artifacts/${org.name}/old-ci`).set(...as()).expect(200)).body).toHaveLength(1);

    const refusal = "Flow 'old-ci' is archived: it takes no new evidence";
    expect((await c.attest('old-ci', 't1', { attestation_name: 'more', is_compliant: true }).expect(400)).body.message).toBe(refusal);
    expect((await c.reportArtifact('old-ci', { fingerprint: fingerprint('b'), filename: 'app', trail_name: 't1', template_reference_name: 'app' }).expect(400)).body.message).toBe(refusal);
    expect((await c.beginTrail('old-ci', { name: 't2' }).expect(400)).body.message).toBe(refusal);
    // Nothing was written by the refused requests.
    expect((await c.getTrail('old-ci', 't1').expect(200)).body.last_moment).toBe(3);
    await c.getTrail('old-ci', 't2').expect(404);
    // Other flows are untouched.
    await c.attest('live-ci', 't1', { attestation_name: 'tests', is_compliant: true }).expect(201);
    await t.http().put(`/api/v2/flows/${org.name}/nope/archive`).set(...as()).expect(404);
  });

  it('a renamed flow keeps every record under its new name; the old name redirects there (308), and the history shows the rename', async () => {
    const c = evidenceClient(t, org);
    await c.reportArtifact('api-ci', { fingerprint: fingerprint('c'), filename: 'api', trail_name: 't1', template_reference_name: 'api' }).expect(201);
    await c.attest('api-ci', 't1', { attestation_name: 'tests', is_compliant: true }).expect(201);

    const renamed = await t.http().put(`/api/v2/flows/${org.name}/api-ci/rename`).set(...as()).send({ new_name: 'api-build' }).expect(200);
    expect(renamed.body).toBe("Flow 'api-ci' was renamed to 'api-build'");

    const trail = await c.getTrail('api-build', 't1').expect(200);
    expect(trail.body.last_moment).toBe(3);
    const flow = (await t.http().get(`/api/v2/flows/${org.name}/api-build`).set(...as()).expect(200)).body;
    expect(flow.history).toEqual([{ event: 'renamed', from: 'api-ci', to: 'api-build', by: expect.any(String), timestamp: expect.any(Number) }]);

    // The old name: a redirect naming the new one, for reads and writes alike, the query kept.
    const read = await t.http().get(`/api/v2/trails/${org.name}/api-ci/t1?x=1`).set(...as()).redirects(0).expect(308);
    expect(read.headers.location).toBe(`/api/v2/trails/${org.name}/api-build/t1?x=1`);
    expect(read.body.message).toBe("Flow 'api-ci' was renamed to 'api-build'");
    const write = await c.reportArtifact('api-ci', { fingerprint: fingerprint('d'), filename: 'api', trail_name: 't1', template_reference_name: 'api' }).redirects(0).expect(308);
    expect(write.headers.location).toBe(`/api/v2/artifacts/${org.name}/api-build`);
    await c.getTrail('api-build', 't1').expect(200).expect((res) => expect(res.body.last_moment).toBe(3)); // the 308 wrote nothing
    // Evidence is not rewritten: the artifact report is the same row, now shown under the new flow name.
    const artifacts = (await t.http().get(`/api/v2/artifacts/${org.name}/api-build`).set(...as()).expect(200)).body;
    expect(artifacts.map((a: any) => [a.flow_name, a.fingerprint])).toEqual([['api-build', fingerprint('c')]]);

    // Refusals: unknown flow 404, a name in use 409, a bad name 400.
    await c.createFlow('other').expect(201);
    await t.http().put(`/api/v2/flows/${org.name}/api-build/rename`).set(...as()).send({ new_name: 'other' }).expect(409);
    expect((await t.http().put(`/api/v2/flows/${org.name}/api-build/rename`).set(...as()).send({ new_name: 'bad name' }).expect(400)).body.errors).toHaveProperty(['new_name']);
    await t.http().put(`/api/v2/flows/${org.name}/nope/rename`).set(...as()).send({ new_name: 'x' }).expect(404);

    // Creating a flow with the old name takes it: the old name no longer redirects.
    await c.createFlow('api-ci').expect(201);
    await t.http().get(`/api/v2/flows/${org.name}/api-ci`).set(...as()).redirects(0).expect(200);
  });

  it('a rename waits for the attestation writes of the flow in progress, so none commits with a time after the rename and then changes name', async () => {
    const c = evidenceClient(t, org);
    for (const [flow, attested] of [['busy-ci', true], ['new-ci', false]] as const) {
      if (attested) await c.attest(flow, 't1', { attestation_name: 'tests', is_compliant: true }).expect(201);
      else await c.createFlow(flow).expect(201);
      const [{ id: flowId, org_id: orgId }] = await t.dataSource.query(
        `SELECT f.id, f.org_id FROM flows f JOIN organizations o ON o.id = f.org_id WHERE o.name = $1 AND f.name = $2`,
        [org.name, flow],
      );
      // A writer in progress: it holds the flow's counter row (or has just created it, for a flow's first attestation).
      const writer = t.dataSource.createQueryRunner();
      await writer.connect();
      await writer.startTransaction();
      const [{ pid: writerPid }] = await writer.query(`SELECT pg_backend_pid() AS pid`);
      try {
        await writer.query(
          `INSERT INTO flow_attestation_counters AS fc (org_id, flow_id, attestation_count, last_attested_at) VALUES ($1, $2, 0, now())
           ON CONFLICT (org_id, flow_id) DO UPDATE SET attestation_count = fc.attestation_count`,
          [orgId, flowId],
        );
        let answered = false;
        const rename = t.http().put(`/api/v2/flows/${org.name}/${flow}/rename`).set(...as()).send({ new_name: `${flow}-2` }).then((res) => {
          answered = true;
          return res;
        });
        // The rename waits on the writer's lock (PostgreSQL says who blocks whom; nothing is timed).
        await waitFor(
          async () => (await t.dataSource.query(`SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`, [writerPid])).length > 0,
          { what: `the rename of ${flow} waiting for the writer` },
        );
        expect(answered).toBe(false);
        await writer.rollbackTransaction();
        expect((await rename).status).toBe(200);
      } finally {
        if (writer.isTransactionActive) await writer.rollbackTransaction();
        await writer.release();
      }
      // The flow takes attestations under its new name, numbered on from where it was.
      await c.attest(`${flow}-2`, 't1', { attestation_name: 'after', is_compliant: true }).expect(201);
      const listed = await t.http().get(`/api/v2/attestations/${org.name}/${flow}-2`).set(...as()).expect(200);
      expect(listed.body.data.map((a: any) => a.attestation_name).sort()).toEqual(attested ? ['after', 'tests'] : ['after']);
    }
  });

  it('an archived environment is hidden unless asked, readable, refuses reports; a renamed one keeps its snapshots and log, and redirects', async () => {
    const env = envApi(t, org);
    await env.create({ name: 'prod', type: 'K8S' }).expect(201);
    await env.create({ name: 'stage', type: 'K8S' }).expect(201);
    await env.report('prod', 'K8S', { artifacts: [pod('p1', { web: digest('w') })] }).expect(201);

    await t.http().put(`/api/v2/environments/${org.name}/stage/archive`).set(...as()).expect(200);
    expect((await env.list().expect(200)).body.map((e: any) => e.name)).toEqual(['prod']);
    expect((await env.list({ archived: 'true' }).expect(200)).body.map((e: any) => [e.name, e.archived])).toEqual([['stage', true]]);
    expect((await env.report('stage', 'K8S', { artifacts: [] }).expect(400)).body.message).toBe("Environment 'stage' is archived: it takes no reports");
    await env.get('stage').expect(200);

    await t.http().put(`/api/v2/environments/${org.name}/prod/rename`).set(...as()).send({ new_name: 'production' }).expect(200);
    const renamed = (await env.get('production').expect(200)).body;
    expect(renamed).toMatchObject({ name: 'production', last_snapshot: 1, history: [{ event: 'renamed', from: 'prod', to: 'production' }] });
    expect((await env.snapshot('production', '1').expect(200)).body.index).toBe(1);
    const events = (await t.http().get(`/api/v2/environments/${org.name}/production/events`).set(...as()).expect(200)).body;
    // Newest first: the rename, then the snapshot's entries (taken under the old name, kept as they were).
    expect(events[0]).toMatchObject({
      type: 'renamed',
      environment_name: 'production',
      snapshot_index: 1,
      artifact_name: '',
      sha256: '',
      description: expect.stringMatching(/^renamed from 'prod' to 'production' by /),
    });
    expect(events.slice(1).map((e: any) => e.type)).toContain('started');
    const csv = (await t.http().get(`/api/v2/environments/${org.name}/production/auditlog`).query({ event_types: 'renamed' }).set(...as()).expect(200)).text;
    expect(csv.trim().split('\r\n').slice(1).map((line) => line.split(',')[2])).toEqual(['renamed']);
    const old = await env.snapshot('prod', '1').redirects(0).expect(308);
    expect(old.headers.location).toBe(`/api/v2/snapshots/${org.name}/production/1`);
    const report = await env.report('prod', 'K8S', { artifacts: [] }).redirects(0).expect(308);
    expect(report.headers.location).toBe(`/api/v2/environments/${org.name}/production/report/K8S`);
    await t.http().put(`/api/v2/environments/${org.name}/production/rename`).set(...as()).send({ new_name: 'stage' }).expect(409);
    await t.http().put(`/api/v2/environments/${org.name}/nope/archive`).set(...as()).expect(404);
  });

  it("the audit log's flow filter finds a renamed flow's entries by its new name and by its old one", async () => {
    const c = evidenceClient(t, org);
    const env = envApi(t, org);
    await c.reportArtifact('ship-ci', { fingerprint: digest('s1'), filename: 'ship', trail_name: 't1', template_reference_name: 'ship' }).expect(201);
    await env.create({ name: 'edge', type: 'K8S' }).expect(201);
    await env.report('edge', 'K8S', { artifacts: [pod('p1', { ship: digest('s1') })] }).expect(201);
    await t.http().put(`/api/v2/flows/${org.name}/ship-ci/rename`).set(...as()).send({ new_name: 'ship-build' }).expect(200);
    await c.reportArtifact('ship-build', { fingerprint: digest('s2'), filename: 'ship', trail_name: 't2', template_reference_name: 'ship' }).expect(201);
    await env.report('edge', 'K8S', { artifacts: [pod('p2', { ship: digest('s2') })] }).expect(201);

    const audit = async (flowNames: string) => {
      const csv = (await t.http().get(`/api/v2/environments/${org.name}/edge/auditlog`).query({ flow_names: flowNames, event_types: 'started' }).set(...as()).expect(200)).text;
      return csv.trim().split('\r\n').slice(1).map((line) => { const f = line.split(','); return [f[4], f[6]]; });
    };
    // The entry written before the rename keeps the name it was written with; both are the flow's.
    const both = [[digest('s1'), 'ship-ci'], [digest('s2'), 'ship-build']];
    expect(await audit('ship-build')).toEqual(both);
    expect(await audit('ship-ci')).toEqual(both);
    expect(await audit('nope')).toEqual([]);
  });
});
