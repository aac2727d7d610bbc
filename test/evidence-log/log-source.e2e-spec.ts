import { AttestationReader } from '../../src/modules/attestations/persistence/attestation.reader';
import { postGeneric } from '../support/attestation-helpers';
import { createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp, uniqueName } from '../support/test-app';

/**
 * The attestations' log source (what the sequencer integrates next), on many flows behind at once: each flow is
 * read up to a share of the round, and the answer is still the oldest committed rows, a prefix of each flow.
 */
describe('evidence log: the attestation source over many flows behind', () => {
  let t: TestApp;
  let org: TestOrg;
  let reader: AttestationReader;

  beforeAll(async () => {
    t = await startTestApp();
    org = await createOrg(t);
    reader = t.app.get(AttestationReader);
  });
  afterAll(() => t?.close());

  it('answers the oldest rows past the positions, a prefix of each flow, however many flows are behind', async () => {
    // Three flows of 40 attestations, written in turn so that their times interleave; one more flow ahead of them all.
    const flows = [uniqueName('a'), uniqueName('b'), uniqueName('c')];
    for (let i = 0; i < 40; i++) {
      for (const flow of flows) await postGeneric(t, org.adminKey, org.name, flow, 't', { attestation_name: `n${i}`, is_compliant: true }).expect(201);
    }
    const rows: Array<{ flow_id: string; flow_name: string; flow_seq: string; at: string }> = await t.dataSource.query(
      `SELECT a.flow_id, f.name AS flow_name, a.flow_seq, to_char(a.created_at, 'YYYY-MM-DD HH24:MI:SS.US') AS at
       FROM attestations a JOIN flows f ON f.id = a.flow_id WHERE f.name = ANY($1) ORDER BY a.created_at, a.flow_id, a.flow_seq`,
      [flows],
    );
    const ours = new Set(rows.map((r) => r.flow_id));
    // Every other flow of the test database is placed at its end: only ours are behind.
    const others: Array<{ flow_id: string; n: string }> = await t.dataSource.query(`SELECT flow_id, attestation_count AS n FROM flow_attestation_counters`);
    const rest = others.filter((o) => !ours.has(o.flow_id)).map((o) => ({ stream: o.flow_id, position: Number(o.n) }));

    const check = async (positions: Map<string, number>, limit: number) => {
      const answer = await reader.committedAfter(t.dataSource.manager, [...rest, ...[...positions].map(([stream, position]) => ({ stream, position }))], limit);
      const pending = rows.filter((r) => Number(r.flow_seq) > (positions.get(r.flow_id) ?? 0));
      expect(answer.length).toBeGreaterThan(0);
      expect(answer.length).toBeLessThanOrEqual(limit);
      // Oldest first, and nothing pending is older than what was answered.
      const times = answer.map((a) => pending.find((p) => p.flow_id === a.log_stream && p.flow_seq === String(a.log_position))!.at);
      expect([...times].sort()).toEqual(times);
      const newest = times[times.length - 1];
      const taken = new Set(answer.map((a) => `${a.log_stream}/${a.log_position}`));
      expect(pending.filter((p) => !taken.has(`${p.flow_id}/${p.flow_seq}`) && p.at < newest)).toEqual([]);
      // Each flow: the rows right after its position, without a gap.
      for (const flowId of ours) {
        const seqs = answer.filter((a) => a.log_stream === flowId).map((a) => Number(a.log_position));
        const from = positions.get(flowId) ?? 0;
        expect(seqs).toEqual(seqs.map((_, i) => from + i + 1));
      }
      return answer;
    };

    // A round of 20 across three flows of 40: each flow is read up to its share (16), and the answer stays exact.
    const first = await check(new Map(), 20);
    expect(first).toHaveLength(20);
    // The next round from where that one ended, and a large one that takes everything left.
    const positions = new Map<string, number>();
    for (const a of first) positions.set(a.log_stream, Math.max(positions.get(a.log_stream) ?? 0, Number(a.log_position)));
    await check(positions, 20);
    const all = await check(positions, 1000);
    expect(all).toHaveLength(120 - 20);

    // A flow far behind (40 rows, all older than another flow's 10): cut at its share, it bounds the round, which
    // takes its 16 oldest rows and none of the newer flow's, although the round could hold 20.
    const [old, recent] = [uniqueName('old'), uniqueName('recent')];
    for (let i = 0; i < 40; i++) await postGeneric(t, org.adminKey, org.name, old, 't', { attestation_name: `n${i}`, is_compliant: true }).expect(201);
    for (let i = 0; i < 10; i++) await postGeneric(t, org.adminKey, org.name, recent, 't', { attestation_name: `n${i}`, is_compliant: true }).expect(201);
    rows.push(
      ...(await t.dataSource.query(
        `SELECT a.flow_id, f.name AS flow_name, a.flow_seq, to_char(a.created_at, 'YYYY-MM-DD HH24:MI:SS.US') AS at
         FROM attestations a JOIN flows f ON f.id = a.flow_id WHERE f.name = ANY($1) ORDER BY a.created_at, a.flow_id, a.flow_seq`,
        [[old, recent]],
      )),
    );
    for (const r of rows) if (!ours.has(r.flow_id) && (r.flow_name === old || r.flow_name === recent)) ours.add(r.flow_id);
    const done = new Map(flows.map((name) => [rows.find((r) => r.flow_name === name)!.flow_id, 40]));
    const behind = await check(done, 20);
    expect(behind.map((a) => [a.flow_name, Number(a.log_position)])).toEqual(Array.from({ length: 16 }, (_, i) => [old, i + 1]));
  }, 120_000);
});
