import { createHash } from 'node:crypto';
import { canonicalJson, leafHash } from '../../libs/transparency/src';
import { LogSigner } from '../../src/modules/evidence-log/evidence-log.module';
import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp, uniqueName } from '../support/test-app';
import { evidenceClient, fingerprint, TEMPLATE } from '../support/trail-helpers';

/**
 * Every kind of record besides attestations (evidence-log README, kinds table): written through its route, then
 * found in the org's log, with `record_sha256` recomputed (RFC 8785) from the answer of the route the table names.
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
});
