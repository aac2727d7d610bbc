import { createHash } from 'node:crypto';
import { canonicalJson } from '../../libs/transparency/src';
import { LogSigner } from '../../src/modules/evidence-log/evidence-log.module';
import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp, uniqueName } from '../support/test-app';
import { digest, envApi, pod } from '../support/env-helpers';
import { evidenceClient, TEMPLATE } from '../support/trail-helpers';

/**
 * A rename never changes a logged record: every entry's `record_sha256` is recomputed from its route after the
 * flow or environment it belongs to was renamed, and records queued before a rename but logged after it are
 * logged all the same (under the new name).
 */
describe('evidence log: renames', () => {
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

  const as = () => bearer(org.adminKey);
  const sha = (value: unknown) => createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');
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
