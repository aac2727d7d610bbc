import { bearer, createOrg, TestOrg } from '../support/factories';
import { envApi } from '../support/env-helpers';
import { startTestApp, TestApp } from '../support/test-app';
import { sessionsWaiting, sessionsWaitingOn } from '../support/locks';
import { evidenceClient, fingerprint } from '../support/trail-helpers';
import { waitFor } from '../support/wait';

/**
 * Renames and archives racing with each other and with writers. Each race is made deterministic the same way:
 * a second connection holds a row lock, the test waits until PostgreSQL reports the requests blocked behind
 * it (pg_blocking_pids; nothing is timed), then lets go.
 */
describe('flow renames and archives racing with each other and with writers', () => {
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

  async function ids(flow: string): Promise<{ flowId: string; orgId: string }> {
    const [{ id, org_id }] = await t.dataSource.query(
      `SELECT f.id, f.org_id FROM flows f JOIN organizations o ON o.id = f.org_id WHERE o.name = $1 AND f.name = $2`,
      [org.name, flow],
    );
    return { flowId: id, orgId: org_id };
  }
  const flowNames = async (): Promise<string[]> =>
    (await t.dataSource.query(`SELECT f.name FROM flows f JOIN organizations o ON o.id = f.org_id WHERE o.name = $1 ORDER BY f.name`, [org.name])).map(
      (r: { name: string }) => r.name,
    );
  const blockedBy = (pid: number) => sessionsWaitingOn(t.dataSource, pid);
  const blockedAny = () => sessionsWaiting(t.dataSource);

  /** Runs `body` while a second connection holds what `sql` locks; lets go (rollback) when `body` returns. */
  async function holding<T>(sql: string, params: unknown[], body: (pid: number) => Promise<T>): Promise<T> {
    const q = t.dataSource.createQueryRunner();
    await q.connect();
    await q.startTransaction();
    try {
      const [{ pid }] = await q.query(`SELECT pg_backend_pid() AS pid`);
      await q.query(sql, params);
      return await body(pid);
    } finally {
      if (q.isTransactionActive) await q.rollbackTransaction();
      await q.release();
    }
  }
  const HOLD_COUNTER = `INSERT INTO flow_attestation_counters AS fc (org_id, flow_id, attestation_count, last_attested_at) VALUES ($1, $2, 0, now())
     ON CONFLICT (org_id, flow_id) DO UPDATE SET attestation_count = fc.attestation_count`;

  it('two renames of one flow at once: one renames it, the other finds the name gone (308 to the new one), and the history has one rename', async () => {
    const c = evidenceClient(t, org);
    await c.createFlow('fa').expect(201);
    const { flowId } = await ids('fa');
    const rename = (to: string) => t.http().put(`/api/v2/flows/${org.name}/fa/rename`).set(...as()).send({ new_name: to }).redirects(0).then((r) => r);
    const [b, c2] = await holding(`SELECT id FROM flows WHERE id = $1 FOR UPDATE`, [flowId], async (pid) => {
      const both = [rename('fb'), rename('fc')];
      // The first waits for this connection, the second for the first (the row's lock queue).
      await waitFor(async () => (await blockedBy(pid)) >= 1 && (await blockedAny()) >= 2, { what: 'both renames blocked on the flow row' });
      return both;
    }).then((both) => Promise.all(both));
    const [winner, loser] = b.status === 200 ? [b, c2] : [c2, b];
    const won = winner === b ? 'fb' : 'fc';
    const lost = won === 'fb' ? 'fc' : 'fb';
    expect([winner.status, loser.status]).toEqual([200, 308]);
    expect(loser.body.message).toBe(`Flow 'fa' was renamed to '${won}'`);
    expect(await flowNames()).toEqual([won]);
    const flow = (await t.http().get(`/api/v2/flows/${org.name}/${won}`).set(...as()).expect(200)).body;
    expect(flow.history.map((h: any) => `${h.from}->${h.to}`)).toEqual([`fa->${won}`]);
    await t.http().get(`/api/v2/flows/${org.name}/${lost}`).set(...as()).redirects(0).expect(404);
    const old = await t.http().get(`/api/v2/flows/${org.name}/fa`).set(...as()).redirects(0).expect(308);
    expect(old.headers.location).toBe(`/api/v2/flows/${org.name}/${won}`);
  });

  it('two flows renamed to the same new name at once: one 200, the other 409 with the error body (not 500)', async () => {
    const c = evidenceClient(t, org);
    await c.createFlow('ga').expect(201);
    await c.createFlow('gb').expect(201);
    const a = await ids('ga');
    const b = await ids('gb');
    const rename = (from: string) => t.http().put(`/api/v2/flows/${org.name}/${from}/rename`).set(...as()).send({ new_name: 'gx' }).then((r) => r);
    const answers = await holding(`SELECT id FROM flows WHERE id = ANY($1::uuid[]) FOR UPDATE`, [[a.flowId, b.flowId]], async (pid) => {
      const both = [rename('ga'), rename('gb')];
      await waitFor(async () => (await blockedBy(pid)) >= 2, { what: 'both renames blocked on the flow rows' });
      return both;
    }).then((both) => Promise.all(both));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(answers.find((r) => r.status === 409)!.body).toMatchObject({ message: "Flow 'gx' already exists" });
    expect((await flowNames()).filter((n) => n === 'gx')).toHaveLength(1);
    expect((await flowNames()).sort()).toHaveLength(2);
  });

  it('two environments renamed to the same new name at once: one 200, the other 409 (not 500)', async () => {
    const env = envApi(t, org);
    await env.create({ name: 'ea', type: 'K8S' }).expect(201);
    await env.create({ name: 'eb', type: 'K8S' }).expect(201);
    const rows = await t.dataSource.query(
      `SELECT e.id FROM environments e JOIN organizations o ON o.id = e.org_id WHERE o.name = $1 AND e.name IN ('ea', 'eb')`,
      [org.name],
    );
    const rename = (from: string) => t.http().put(`/api/v2/environments/${org.name}/${from}/rename`).set(...as()).send({ new_name: 'ex' }).then((r) => r);
    const answers = await holding(`SELECT id FROM environments WHERE id = ANY($1::uuid[]) FOR UPDATE`, [rows.map((r: { id: string }) => r.id)], async (pid) => {
      const both = [rename('ea'), rename('eb')];
      await waitFor(async () => (await blockedBy(pid)) >= 2, { what: 'both renames blocked on the environment rows' });
      return both;
    }).then((both) => Promise.all(both));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(answers.find((r) => r.status === 409)!.body).toMatchObject({ message: "Environment 'ex' already exists" });
  });

  it('evidence sent to a flow name while a rename away from it commits is redirected to the new name and creates no flow of the old name', async () => {
    const c = evidenceClient(t, org);
    await c.attest('ca', 't1', { attestation_name: 'tests', is_compliant: true }).expect(201);
    const { flowId, orgId } = await ids('ca');
    // The rename has renamed the row and waits for the flow's writers (the counter held here) before it commits.
    const [rename, report] = await holding(HOLD_COUNTER, [orgId, flowId], async (pid) => {
      const renaming = t.http().put(`/api/v2/flows/${org.name}/ca/rename`).set(...as()).send({ new_name: 'ca-2' }).then((r) => r);
      await waitFor(async () => (await blockedBy(pid)) >= 1, { what: 'rename blocked on the counter' });
      // A new trail in the old name: its flow insert waits on the (org_id, name) key for the rename.
      const reporting = c
        .reportArtifact('ca', { fingerprint: fingerprint('e'), filename: 'app', trail_name: 'fresh', template_reference_name: 'app' })
        .redirects(0)
        .then((r) => r);
      await waitFor(async () => (await blockedAny()) >= 2, { what: 'the report blocked behind the rename' });
      return [renaming, reporting];
    }).then((both) => Promise.all(both));
    expect(rename.status).toBe(200);
    expect(report.status).toBe(308);
    expect(report.headers.location).toBe(`/api/v2/artifacts/${org.name}/ca-2`);
    expect(await flowNames()).toEqual(['ca-2']);
    const old = await t.http().get(`/api/v2/flows/${org.name}/ca`).set(...as()).redirects(0).expect(308);
    expect(old.headers.location).toBe(`/api/v2/flows/${org.name}/ca-2`);
    await c.getTrail('ca-2', 'fresh').expect(404); // the redirected request wrote nothing
  });

  it('an archive waits for a write in flight into the flow; a write that has not reached the flow yet is refused after it', async () => {
    const c = evidenceClient(t, org);
    await c.attest('da', 't1', { attestation_name: 'tests', is_compliant: true }).expect(201);
    const { flowId, orgId } = await ids('da');
    for (const trail of ['t2', 't1']) {
      let archived: { status: number; body: unknown } | null = null;
      const { write, archive, answeredFirst } = await holding(HOLD_COUNTER, [orgId, flowId], async (pid) => {
        // The write has recorded its moment and waits for the flow counter (held here) before it commits.
        const writing = c.attest('da', trail, { attestation_name: `late-${trail}`, is_compliant: true }).then((r) => r);
        await waitFor(async () => (await blockedBy(pid)) >= 1, { what: 'the write blocked on the counter' });
        const archiving = t.http().put(`/api/v2/flows/${org.name}/da/archive`).set(...as()).then((r) => (archived = r));
        await waitFor(async () => archived !== null || (await blockedAny()) >= 2, { what: 'the archive answered or blocked' });
        return { write: writing, archive: archiving, answeredFirst: archived !== null };
      });
      const [w, a] = await Promise.all([write, archive]);
      expect(a.status).toBe(200);
      // Either the archive came first and the write is refused, or the archive waited for the write to commit.
      if (answeredFirst) expect([w.status, w.body.message]).toEqual([400, "Flow 'da' is archived: it takes no new evidence"]);
      else expect(w.status).toBe(201);
      if (trail === 't2') expect(answeredFirst).toBe(false); // this write held the flow (its new trail's moment) when the archive came
      const flow = (await t.http().get(`/api/v2/flows/${org.name}/da`).set(...as()).expect(200)).body;
      const list = (await t.http().get(`/api/v2/attestations/${org.name}/da`).set(...as()).expect(200)).body.data;
      // Nothing was recorded into the flow after it was archived.
      for (const row of list) expect(row.created_at).toBeLessThanOrEqual(flow.archived_at);
      await t.dataSource.query(`UPDATE flows SET archived_at = NULL, archived_by = NULL WHERE id = $1`, [flowId]);
    }
  });

  it('a one-statement attestation write and a rename of its flow at once: both succeed (no deadlock between the counter and the flow row)', async () => {
    const c = evidenceClient(t, org);
    await c.attest('ra', 't1', { attestation_name: 'first', is_compliant: true }).expect(201);
    await c.attest('ra', 't0', { attestation_name: 'zero', is_compliant: true }).expect(201);
    const { flowId } = await ids('ra');
    // Held here: the flow_seq the next write takes (3), in a row of the other trail (its foreign key holds t0,
    // not t1), so the write into t1 stops after it has taken the flow counter, before the archived-flow trigger.
    const [write, rename] = await holding(
      `INSERT INTO attestations SELECT (jsonb_populate_record(NULL::attestations, to_jsonb(a) || jsonb_build_object('id', gen_random_uuid(), 'flow_seq', a.flow_seq + 1))).*
       FROM attestations a WHERE a.flow_id = $1 ORDER BY a.flow_seq DESC LIMIT 1`,
      [flowId],
      async (pid) => {
        const writing = c.attest('ra', 't1', { attestation_name: 'second', is_compliant: true }).redirects(0).then((r) => r);
        await waitFor(async () => (await blockedBy(pid)) >= 1, { what: 'the write blocked on flow_seq 3' });
        const renaming = t.http().put(`/api/v2/flows/${org.name}/ra/rename`).set(...as()).send({ new_name: 'ra-2' }).then((r) => r);
        await waitFor(async () => (await blockedAny()) >= 2, { what: 'the rename blocked behind the write' });
        return [writing, renaming];
      },
    ).then((both) => Promise.all(both));
    expect([write.status, rename.status]).toEqual([201, 200]);
    const listed = (await t.http().get(`/api/v2/attestations/${org.name}/ra-2`).set(...as()).expect(200)).body.data;
    expect(listed.map((a: any) => a.attestation_name).sort()).toEqual(['first', 'second', 'zero']);
  });
});
