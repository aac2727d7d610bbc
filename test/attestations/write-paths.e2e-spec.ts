import { createHash } from 'node:crypto';
import { AttestationRecorder, AttestationTypeRegistry, RecordAttestationInput } from '../../src/modules/attestations/attestations.module';
import { StagedEvidence } from '../../src/modules/attestations/upload/staged-evidence';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { Outbox } from '../../src/modules/outbox/outbox.module';
import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { FP, reportArtifact } from '../support/attestation-helpers';

/**
 * The differential spec of the attestation write path. The same attestations are recorded through each way
 * the service has of writing them, each into a fresh org set up the same way, and the stored rows must be the
 * same, ids and times aside:
 * - single:   one transaction per attestation (AttestationRecorder.record), what a lone request takes;
 * - fallback: one transaction for the group (prepareMany + insert), what a group takes when it needs
 *             lookups or its one-statement write failed;
 * - at once:  one statement for the group (recordGroupAtOnce), the common ingest case.
 * The orgs subscribe to the outbox's attestation and trail events, and every path must raise the same events
 * too; an org without subscriptions gets none.
 */
describe('attestation write paths (differential)', () => {
  let t: TestApp;
  let recorder: AttestationRecorder;
  let uow: UnitOfWork;
  let registry: AttestationTypeRegistry;
  let outbox: Outbox;

  beforeAll(async () => {
    t = await startTestApp();
    recorder = t.app.get(AttestationRecorder, { strict: false });
    uow = t.app.get(UnitOfWork, { strict: false });
    registry = t.app.get(AttestationTypeRegistry, { strict: false });
    outbox = t.app.get(Outbox, { strict: false });
  });
  afterAll(() => t.close());

  const blob = (text: string) => {
    const content = Buffer.from(text);
    return new StagedEvidence(createHash('sha256').update(content).digest(), content.length, `${text}.txt`, 'text/plain', content, null);
  };
  const blobA = blob('report-a');
  const blobB = blob('report-b');

  type Spec = { trail: string; data: Record<string, unknown>; evidence?: StagedEvidence };

  /** Attestations that every path can take: all trails exist, no artifact fingerprint, no repo_info. */
  const common: Spec[] = [
    { trail: 'one', data: { attestation_name: 'unit', is_compliant: true, target_artifacts: ['web', 'api'] } },
    { trail: 'two', data: { attestation_name: 'lint', is_compliant: true }, evidence: blobA },
    { trail: 'one', data: { attestation_name: 'unit', is_compliant: false }, evidence: blobA },
    {
      trail: 'one',
      data: {
        attestation_name: 'sec',
        is_compliant: true,
        description: 'scan',
        origin_url: 'https://ci.example.com/1',
        external_urls: { report: 'https://ci.example.com/r', sbom: { href: 'https://ci.example.com/s', fingerprint: FP('c') } },
        annotations: { team: 'core' },
        user_data: { toString: 1, nested: [1, { a: null }] },
        git_commit_info: { sha1: FP('d').slice(0, 40), message: 'm', author: 'a', branch: 'main', timestamp: 1700000000 },
      },
    },
    { trail: 'two', data: { attestation_name: 'e2e', is_compliant: true }, evidence: blobB },
  ];

  /** Attestations that need lookups (an artifact fingerprint, a repo): the one-statement path declines them. */
  const withLookups: Spec[] = [
    { trail: 'one', data: { attestation_name: 'provenance', is_compliant: true, artifact_fingerprint: FP('a') } },
    {
      trail: 'two',
      data: { attestation_name: 'review', is_compliant: false, repo_info: { name: 'acme/web', url: 'https://git.example.com/acme/web', id: '42' } },
    },
    { trail: 'three', data: { attestation_name: 'new-trail', is_compliant: true } },
  ];

  async function setUp(subscribed = true): Promise<{ org: TestOrg; orgId: string }> {
    const org = await createOrg(t);
    const [{ id }] = await t.dataSource.query(`SELECT id FROM organizations WHERE name = $1`, [org.name]);
    if (subscribed) await uow.run((manager) => outbox.subscribe(manager, 'write-paths-spec', id, ['attestation.recorded', 'trail.started']));
    await t.http().put(`/api/v2/flows/${org.name}`).set(...bearer(org.adminKey)).send({ name: 'app' }).expect(201);
    for (const trail of ['one', 'two']) {
      await t.http().put(`/api/v2/trails/${org.name}/app`).set(...bearer(org.adminKey)).field('data_json', JSON.stringify({ name: trail })).expect(201);
    }
    await reportArtifact(t, org.adminKey, org.name, 'app', 'one', FP('a'), 'web');
    return { org, orgId: id };
  }

  const inputsFor = (orgId: string, specs: Spec[]): RecordAttestationInput[] =>
    specs.map((s) => ({
      orgId,
      flowName: 'app',
      trailName: s.trail,
      actor: 'writer@example.com',
      type: registry.get('generic')!,
      data: s.data,
      evidence: s.evidence ?? null,
    }));

  const paths = {
    single: async (inputs: RecordAttestationInput[]) => {
      const out = [];
      for (const input of inputs) out.push(await uow.run((manager) => recorder.record(manager, input)));
      return out;
    },
    fallback: (inputs: RecordAttestationInput[]) =>
      uow.run(async (manager) => {
        const prepared = await recorder.prepareMany(manager, inputs);
        await recorder.insert(manager, prepared);
        return prepared;
      }),
    atOnce: async (inputs: RecordAttestationInput[]) => {
      const out = await recorder.recordGroupAtOnce(inputs);
      if (!out) throw new Error('the one-statement path declined the group');
      return out;
    },
  };

  /** Everything the write path stored for the org, with ids and times replaced by what they point at. */
  async function stored(orgName: string) {
    const attestations = await t.dataSource.query(
      `SELECT t.name AS trail, a.flow_seq::int, a.moment_number, a.name, a.artifact_name, a.artifact_fingerprint,
         a.attestation_type, a.schema_version, a.is_compliant, a.description, a.origin_url, a.external_urls, a.annotations,
         a.user_data, a.git_commit_info, a.repo_info, a.data, encode(a.evidence_sha256, 'hex') AS sha256, a.evidence_filename,
         a.evidence_size::int, a.evidence_content_type, a.reported_by,
         EXISTS (SELECT 1 FROM trail_moments m WHERE m.trail_id = a.trail_id AND m.moment_number = a.moment_number AND m.subject_id = a.id)
           AS is_moment_subject
       FROM attestations a JOIN trails t ON t.id = a.trail_id JOIN organizations o ON o.id = a.org_id
       WHERE o.name = $1 ORDER BY a.flow_seq`,
      [orgName],
    );
    const moments = await t.dataSource.query(
      `SELECT t.name AS trail, m.moment_number, m.kind, m.template_id IS NULL AS untemplated, a.flow_seq::int AS subject_flow_seq
       FROM trail_moments m JOIN trails t ON t.id = m.trail_id JOIN organizations o ON o.id = t.org_id
       LEFT JOIN attestations a ON a.id = m.subject_id
       WHERE o.name = $1 ORDER BY t.name, m.moment_number`,
      [orgName],
    );
    const trails = await t.dataSource.query(
      `SELECT t.name, t.last_moment FROM trails t JOIN organizations o ON o.id = t.org_id WHERE o.name = $1 ORDER BY t.name`,
      [orgName],
    );
    const counters = await t.dataSource.query(
      `SELECT f.name, c.attestation_count::int FROM flow_attestation_counters c JOIN flows f ON f.id = c.flow_id
       JOIN organizations o ON o.id = f.org_id WHERE o.name = $1`,
      [orgName],
    );
    const times = await t.dataSource.query(
      `SELECT a.created_at, m.created_at AS moment_at FROM attestations a JOIN organizations o ON o.id = a.org_id
       JOIN trail_moments m ON m.trail_id = a.trail_id AND m.moment_number = a.moment_number
       WHERE o.name = $1 ORDER BY a.flow_seq`,
      [orgName],
    );
    // Events in the order they were appended, attestation ids replaced by the row's flow_seq.
    const events = await t.dataSource.query(
      `SELECT e.type, e.subject, e.payload - 'attestation_id' - 'created_by' AS payload, a.flow_seq::int AS attestation_flow_seq
       FROM outbox_events e JOIN organizations o ON o.id = e.org_id
       LEFT JOIN attestations a ON a.id = (e.payload->>'attestation_id')::uuid
       WHERE o.name = $1 ORDER BY e.id`,
      [orgName],
    );
    return { attestations, moments, trails, counters, times, events };
  }

  function expectSane(result: Awaited<ReturnType<typeof stored>>, recorded: Array<{ attestationIds: string[] }>, specs: Spec[]) {
    expect(recorded).toHaveLength(specs.length);
    // created_at follows flow_seq within the flow
    for (let i = 1; i < result.times.length; i++) {
      expect(result.times[i].created_at.getTime()).toBeGreaterThanOrEqual(result.times[i - 1].created_at.getTime());
    }
    // every trail's moments are 1..last_moment without gaps
    for (const trail of result.trails) {
      const numbers = result.moments.filter((m: any) => m.trail === trail.name).map((m: any) => m.moment_number);
      expect(numbers).toEqual(Array.from({ length: trail.last_moment }, (_, i) => i + 1));
    }
  }

  it('single, fallback and one-statement writes store the same rows', async () => {
    const results: Record<string, Awaited<ReturnType<typeof stored>>> = {};
    for (const [name, write] of Object.entries(paths)) {
      const { org, orgId } = await setUp();
      const recorded = await write(inputsFor(orgId, common));
      results[name] = await stored(org.name);
      expectSane(results[name], recorded, common);
    }
    const { single, fallback, atOnce } = results;
    // what a user would check first: the six rows (one attestation fills two slots), their numbers and moments
    expect(single.attestations.map((a: any) => [a.trail, a.flow_seq, a.moment_number, a.name, a.artifact_name])).toEqual([
      ['one', 1, 3, 'unit', 'web'],
      ['one', 2, 3, 'unit', 'api'],
      ['two', 3, 2, 'lint', null],
      ['one', 4, 4, 'unit', null],
      ['one', 5, 5, 'sec', null],
      ['two', 6, 3, 'e2e', null],
    ]);
    expect(single.counters).toEqual([{ name: 'app', attestation_count: 6 }]);
    expect(single.attestations[4].user_data).toEqual({ toString: 1, nested: [1, { a: null }] });
    // the events: the two trails begun in setUp, then one per stored row, in arrival order
    expect(single.events.map((e: any) => [e.type, e.subject.trail, e.attestation_flow_seq])).toEqual([
      ['trail.started', 'one', null],
      ['trail.started', 'two', null],
      ['attestation.recorded', 'one', 1],
      ['attestation.recorded', 'one', 2],
      ['attestation.recorded', 'two', 3],
      ['attestation.recorded', 'one', 4],
      ['attestation.recorded', 'one', 5],
      ['attestation.recorded', 'two', 6],
    ]);
    expect(single.events[3]).toEqual({
      type: 'attestation.recorded',
      subject: { flow: 'app', trail: 'one' },
      payload: {
        attestation_name: 'unit',
        attestation_type: 'generic',
        is_compliant: true,
        artifact_name: 'api',
        artifact_fingerprint: null,
        moment_number: 3,
        reported_by: 'writer@example.com',
      },
      attestation_flow_seq: 2,
    });
    for (const other of [fallback, atOnce]) {
      expect({ attestations: other.attestations, moments: other.moments, trails: other.trails, counters: other.counters, events: other.events }).toEqual({
        attestations: single.attestations,
        moments: single.moments,
        trails: single.trails,
        counters: single.counters,
        events: single.events,
      });
    }
  });

  it('an org that subscribes to nothing gets no events, on any path', async () => {
    for (const write of Object.values(paths)) {
      const { org, orgId } = await setUp(false);
      await write(inputsFor(orgId, common));
      expect((await stored(org.name)).attestations).toHaveLength(6);
      expect((await stored(org.name)).events).toEqual([]);
    }
  });

  it("the one-statement path never leaves events out on a stale copy of the subscriptions: it declines, then catches up", async () => {
    const { org, orgId } = await setUp(false);
    const [first, second, third] = common.slice(1, 4).map((spec) => inputsFor(orgId, [spec]));
    expect(await recorder.recordGroupAtOnce(first)).not.toBeNull(); // this process's copy: nobody subscribes
    // The org subscribes behind this process's back (as through another process): the copy is stale now.
    await uow.run((manager) => outbox.subscribe(manager, 'write-paths-spec', orgId, ['attestation.recorded']));
    expect(await recorder.recordGroupAtOnce(second)).toBeNull();
    expect((await stored(org.name)).attestations).toHaveLength(1);
    // Declining refreshed the copy: the next group is written with its event.
    expect(await recorder.recordGroupAtOnce(third)).not.toBeNull();
    const after = await stored(org.name);
    expect(after.attestations).toHaveLength(2);
    expect(after.events.map((e: any) => [e.type, e.attestation_flow_seq])).toEqual([['attestation.recorded', 2]]);
  });

  it('attestations that need lookups: the one-statement path declines them, single and fallback agree', async () => {
    const declined = await setUp();
    expect(await recorder.recordGroupAtOnce(inputsFor(declined.orgId, withLookups))).toBeNull();
    expect((await stored(declined.org.name)).attestations).toEqual([]);

    const results = [];
    for (const write of [paths.single, paths.fallback]) {
      const { org, orgId } = await setUp();
      const recorded = await write(inputsFor(orgId, withLookups));
      const result = await stored(org.name);
      expectSane(result, recorded, withLookups);
      results.push(result);
    }
    const [single, fallback] = results;
    expect(single.attestations.map((a: any) => [a.trail, a.name, a.artifact_name, a.artifact_fingerprint])).toEqual([
      ['one', 'provenance', 'web', FP('a')],
      ['two', 'review', null, null],
      ['three', 'new-trail', null, null],
    ]);
    expect(single.trails).toEqual([
      { name: 'one', last_moment: 3 },
      { name: 'three', last_moment: 2 },
      { name: 'two', last_moment: 2 },
    ]);
    // Events: the same, in the same order within each trail (the group path begins its new trails first).
    expect({ ...fallback, times: undefined, events: perTrail(fallback.events) }).toEqual({ ...single, times: undefined, events: perTrail(single.events) });
    expect(perTrail(single.events).three.map((e: any) => e.type)).toEqual(['trail.started', 'attestation.recorded']);
  });
});

/** Events grouped by trail, in their order. */
function perTrail(events: Array<{ subject: { trail: string } }>): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const e of events) (out[e.subject.trail] ??= []).push(e);
  return out;
}
