import { createHash } from 'node:crypto';
import { canonicalJson, leafHash } from '../../libs/transparency/src';
import { LogSigner } from '../../src/modules/evidence-log/evidence-log.module';
import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp, uniqueName } from '../support/test-app';
import { digest, envApi, pod } from '../support/env-helpers';
import { evidenceClient, fingerprint, TEMPLATE } from '../support/trail-helpers';

/**
 * Every kind of record besides attestations (evidence-log README, kinds table): written through its route, then
 * found in the org's log, with `record_sha256` recomputed (RFC 8785) from the answer of the route the table names;
 * and after renames, the same.
 */
describe('evidence log: kinds of records', () => {
  let t: TestApp;
  let org: TestOrg;
  let signer: LogSigner;
  let c: ReturnType<typeof evidenceClient>;

  beforeAll(async () => {
    t = await startTestApp({ LOG_CHECKPOINT_INTERVAL_MS: '3600000', LOG_SEQUENCE_INTERVAL_MS: '60000' });
    signer = t.app.get(LogSigner, { strict: false });
    org = await createOrg(t, { features: ['trail_moments'] });
    c = evidenceClient(t, org);
  });
  afterAll(async () => {
    await t?.close();
  });

  const log = (p: string) => t.http().get(`/api/v2/log/${org.name}${p}`).set(...bearer(org.adminKey));
  const sha = (value: unknown) => createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');

  /** The integrated entries of one kind, leaves parsed. */
  async function entriesOf(kind: string): Promise<Array<{ index: number; leaf: any; text: string; hash: string }>> {
    await signer.signDue();
    const body = (await log('/entries?start=0&limit=1000').expect(200)).body;
    return body.entries
      .map((e: any) => ({ index: e.index, leaf: JSON.parse(e.leaf), text: e.leaf, hash: e.leaf_hash }))
      .filter((e: any) => e.leaf.kind === kind);
  }

  it('leaves out a record its route cannot show (a 4xx) with a warning, and goes on logging everything else', async () => {
    // A template with two slots of one name: the trail's moment route answers 409, so that moment has no read shape to hash.
    const flow = uniqueName('dupes');
    const template = 'version: 1\ntrail:\n  attestations:\n    - name: same\n      type: generic\n    - name: same\n      type: generic\n';
    await t.http().put(`/api/v2/flows/${org.name}/template_file`).set(...bearer(org.adminKey))
      .field('data_json', JSON.stringify({ name: flow }))
      .attach('template_file', Buffer.from(template), 'template.yml')
      .expect(201);
    await t.http().put(`/api/v2/trails/${org.name}/${flow}`).set(...bearer(org.adminKey)).field('data_json', JSON.stringify({ name: 'd1' })).expect(201);
    await c.moment(flow, 'd1', '1').expect(409);
    // Queued after it, in the same round: a trail of a flow that reads fine.
    const fine = uniqueName('flow');
    await c.createFlow(fine, TEMPLATE).expect(201);
    await c.beginTrail(fine, { name: 'release', description: 'first' }).expect(201);
    const entries = await entriesOf('trail');
    expect(entries.filter((e) => e.leaf.flow === flow)).toEqual([]);
    expect(entries.filter((e) => e.leaf.flow === fine).map((e) => [e.leaf.trail, e.leaf.moment])).toEqual([['release', 1]]);
  });

  it('logs a trail begun and updated (kind trail), each over its moment as GET /trails/{org}/{flow}/{trail}/moments/{n} answers it', async () => {
    const flow = uniqueName('flow');
    await c.createFlow(flow, TEMPLATE).expect(201);
    await c.beginTrail(flow, { name: 'release', description: 'first' }).expect(201);
    await c.beginTrail(flow, { name: 'release', description: 'second' }).expect(200);
    const entries = (await entriesOf('trail')).filter((e) => e.leaf.flow === flow);
    expect(entries.map((e) => [e.leaf.trail, e.leaf.moment])).toEqual([
      ['release', 1],
      ['release', 2],
    ]);
    for (const e of entries) {
      const moment = await c.moment(flow, 'release', String(e.leaf.moment)).expect(200);
      expect(e.leaf.record_sha256).toBe(sha(moment.body));
      expect(e.leaf.id).toMatch(new RegExp(`^[0-9a-f-]{36}@${e.leaf.moment}$`));
      expect(e.leaf.recorded_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      expect(Buffer.from(e.hash, 'base64')).toEqual(leafHash(Buffer.from(e.text, 'utf8')));
      const found = (await log(`/lookup?kind=trail&id=${encodeURIComponent(e.leaf.id)}`).expect(200)).body;
      expect(found).toEqual({ index: e.index, leaf: e.text, leaf_hash: e.hash });
    }
    // Unchanged: no new moment, no entry.
    await c.beginTrail(flow, { name: 'release', description: 'second' }).expect(200);
    expect((await entriesOf('trail')).filter((e) => e.leaf.flow === flow)).toHaveLength(2);
  });

  it('logs an artifact report (kind artifact) over the moment it made, and answers lookup with index null before integration', async () => {
    const flow = uniqueName('flow');
    await c.createFlow(flow, TEMPLATE).expect(201);
    await c.beginTrail(flow, { name: 'build' }).expect(201);
    await c.reportArtifact(flow, { fingerprint: fingerprint('b'), filename: 'web:2', trail_name: 'build', template_reference_name: 'backend' }).expect(201);
    const artifacts = await t.http().get(`/api/v2/artifacts/${org.name}/${flow}/fingerprint/${fingerprint('b')}`).set(...bearer(org.adminKey)).expect(200);
    const artifactId = JSON.stringify(artifacts.body).match(/"id":"([0-9a-f-]{36})"/)?.[1];
    expect(artifactId).toEqual(expect.any(String));
    const pending = (await log(`/lookup?kind=artifact&id=${artifactId}`).expect(200)).body;
    const [entry] = (await entriesOf('artifact')).filter((e) => e.leaf.flow === flow);
    expect(entry.leaf).toMatchObject({ kind: 'artifact', org: org.name, trail: 'build', moment: 2 });
    const moment = await c.moment(flow, 'build', '2').expect(200);
    expect(entry.leaf.record_sha256).toBe(sha(moment.body));
    expect(entry.leaf.id).toBe(artifactId);
    expect(pending).toEqual({ index: null, leaf: entry.text, leaf_hash: entry.hash });
    const found = (await log(`/lookup?kind=artifact&id=${entry.leaf.id}`).expect(200)).body;
    expect(found.index).toBe(entry.index);
  });

  it('logs an environment snapshot (kind environment_snapshot) over GET /snapshots/{org}/{env}/{n}, and nothing for an unchanged report', async () => {
    const env = uniqueName('env');
    const as = (r: any) => r.set(...bearer(org.adminKey));
    await as(t.http().put(`/api/v2/environments/${org.name}`)).send({ name: env, type: 'server' }).expect(201);
    const report = (digest: string) =>
      as(t.http().put(`/api/v2/environments/${org.name}/${env}/report/server`)).send({ artifacts: [{ digests: { 'app.tgz': digest }, creationTimestamp: 1700000000 }] });
    await report('a'.repeat(64)).expect(201);
    await report('a'.repeat(64)).expect((r: any) => expect([200, 201]).toContain(r.status)); // unchanged
    await report('c'.repeat(64)).expect(201);
    const entries = (await entriesOf('environment_snapshot')).filter((e) => e.leaf.environment === env);
    expect(entries).toHaveLength(2);
    for (const [k, e] of entries.entries()) {
      expect(e.leaf.id).toMatch(new RegExp(`#${k + 1}$`));
      const snapshot = await as(t.http().get(`/api/v2/snapshots/${org.name}/${env}/${k + 1}`)).expect(200);
      expect(e.leaf.record_sha256).toBe(sha(snapshot.body));
    }
  });

  it('logs each custom attestation type version (kind custom_attestation_type_version) over its element of versions, and nothing when unchanged', async () => {
    const name = uniqueName('type').replace(/-/g, '_');
    const define = (rules: string[]) =>
      t
        .http()
        .post(`/api/v2/custom-attestation-types/${org.name}`)
        .set(...bearer(org.adminKey))
        .field('data_json', JSON.stringify({ name, evaluator: { content_type: 'jq', rules } }))
        .expect(201);
    await define(['.age > 21']);
    await define(['.age > 21']); // the same: no new version
    await define(['.age > 18']);
    const entries = (await entriesOf('custom_attestation_type_version')).filter((e) => e.leaf.id.startsWith(`${name}@`));
    expect(entries.map((e) => e.leaf.id)).toEqual([`${name}@1`, `${name}@2`]);
    for (const [k, e] of entries.entries()) {
      const read = await t.http().get(`/api/v2/custom-attestation-types/${org.name}/${name}?version=${k + 1}`).set(...bearer(org.adminKey)).expect(200);
      const element = read.body.versions.find((v: any) => v.version === k + 1);
      expect(e.leaf.record_sha256).toBe(sha(element));
    }
  });

  // A rename never changes a logged record: every entry's record_sha256 is recomputed from its route after the
  // flow or environment it belongs to was renamed, and records queued before a rename but logged after it are
  // logged all the same (under the new name).
  describe('renames', () => {
    const as = () => bearer(org.adminKey);
    async function entries(): Promise<any[]> {
      await signer.signDue();
      const body = (await t.http().get(`/api/v2/log/${org.name}/entries?start=0&limit=1000`).set(...as()).expect(200)).body;
      return body.entries.map((e: any) => JSON.parse(e.leaf));
    }
    const attestation = async (id: string) =>
      (await t.http().get(`/api/v2/attestations/${org.name}?attestation_id=${id}`).set(...as()).expect(200)).body.data[0];

    it('an attestation logged before its flow was renamed still hashes to its entry, and shows the name it was recorded under', async () => {
      const before = uniqueName('flow');
      const after = uniqueName('renamed');
      await c.createFlow(before, TEMPLATE).expect(201);
      await c.beginTrail(before, { name: 'release' }).expect(201);
      await c.attest(before, 'release', { attestation_name: 'unit', is_compliant: true }).expect(201);
      const logged = (await entries()).find((e) => e.kind === 'attestation' && e.flow === before)!;
      expect(sha(await attestation(logged.id))).toBe(logged.record_sha256);

      await t.http().put(`/api/v2/flows/${org.name}/${before}/rename`).set(...as()).send({ new_name: after }).expect(200);
      const read = await attestation(logged.id);
      expect({ flow_name: read.flow_name, sha: sha(read) }).toEqual({ flow_name: before, sha: logged.record_sha256 });

      // Recorded after the rename: under the new name, and logged so.
      await c.attest(after, 'release', { attestation_name: 'lint', is_compliant: true }).expect(201);
      const next = (await entries()).find((e) => e.kind === 'attestation' && e.flow === after)!;
      const nextRead = await attestation(next.id);
      expect({ flow_name: nextRead.flow_name, sha: sha(nextRead) }).toEqual({ flow_name: after, sha: next.record_sha256 });
      // The flow's attestations list both, each as recorded.
      const listed = (await t.http().get(`/api/v2/attestations/${org.name}/${after}`).set(...as()).expect(200)).body.data;
      expect(listed.map((a: any) => [a.attestation_name, a.flow_name]).sort()).toEqual([
        ['lint', after],
        ['unit', before],
      ]);
    });

    it('a trail moment and a snapshot queued before a rename and integrated after it are logged, under the new name', async () => {
      const flow = uniqueName('flow');
      const env = uniqueName('env');
      await c.createFlow(flow, TEMPLATE).expect(201);
      await t.http().put(`/api/v2/environments/${org.name}`).set(...as()).send({ name: env, type: 'K8S' }).expect(201);
      await signer.signDue();
      // Written, then renamed before any sequencing round (the timer is an hour here).
      await c.beginTrail(flow, { name: 'release' }).expect(201);
      await envApi(t, org).report(env, 'K8S', { artifacts: [pod('p', { web: digest('rename-web') })] }).expect(201);
      await t.http().put(`/api/v2/flows/${org.name}/${flow}/rename`).set(...as()).send({ new_name: `${flow}-new` }).expect(200);
      await t.http().put(`/api/v2/environments/${org.name}/${env}/rename`).set(...as()).send({ new_name: `${env}-new` }).expect(200);
      const logged = await entries();
      const moment = logged.find((e) => e.kind === 'trail' && e.flow === `${flow}-new`);
      const snapshot = logged.find((e) => e.kind === 'environment_snapshot' && e.environment === `${env}-new`);
      expect({ moment: moment && [moment.trail, moment.moment], snapshot: snapshot && snapshot.id.endsWith('#1') }).toEqual({ moment: ['release', 1], snapshot: true });
      const momentRead = (await t.http().get(`/api/v2/trails/${org.name}/${flow}-new/release/moments/1`).set(...as()).expect(200)).body;
      expect(sha(momentRead)).toBe(moment.record_sha256);
      const snapshotRead = (await t.http().get(`/api/v2/snapshots/${org.name}/${env}-new/1`).set(...as()).expect(200)).body;
      expect(sha(snapshotRead)).toBe(snapshot.record_sha256);
    });
  });
});
