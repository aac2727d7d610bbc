import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { HttpReceiver, startHttpReceiver } from '../support/receivers';

/**
 * ON_DECISION for decisions clients post (`POST .../system`, the CLI's `attest decision`), delivered to a real
 * HTTP receiver as for decisions an evaluation makes.
 */
describe('ON_DECISION for decisions posted through /system', () => {
  let t: TestApp;
  let receiver: HttpReceiver;
  let org: TestOrg;
  let orgId: string;

  beforeAll(async () => {
    receiver = await startHttpReceiver();
    t = await startTestApp({ ACTIONS_ALLOW_PRIVATE_TARGETS: 'true', ACTIONS_DELIVERY_TIMEOUT_MS: '1500', ACTIONS_RETRY_DELAY_SECONDS: '1' });
    org = await createOrg(t, { features: ['controls'] });
    [{ id: orgId }] = await t.dataSource.query(`SELECT id FROM organizations WHERE name = $1`, [org.name]);
  });
  afterAll(async () => {
    await t?.dataSource.query(`UPDATE action_deliveries SET status = 'dead' WHERE org_id = $1 AND status = 'pending'`, [orgId]).catch(() => undefined);
    await t?.close();
    await receiver?.close();
  });

  const admin = () => bearer(org.adminKey);
  const at = (path: string) => receiver.received.filter((r) => r.path === path);

  it('a posted decision fires ON_DECISION once, with its control and verdict, beside ON_ATTESTATION', async () => {
    await t.http().post(`/api/v2/controls/${org.name}`).set(...admin()).send({ identifier: 'CTRL-1', name: 'Release gate' }).expect(201);
    await t
      .http()
      .put(`/api/v2/actions/${org.name}/flows`)
      .set(...admin())
      .send({ name: 'decisions', flows: ['app'], triggers: ['ON_DECISION', 'ON_ATTESTATION'], targets: [{ type: 'WEBHOOK', webhook: receiver.url('/decisions') }] })
      .expect(201);

    const res = await t
      .http()
      .post(`/api/v2/attestations/${org.name}/app/trail/t1/system`)
      .set(...admin())
      .field('data_json', JSON.stringify({ type_name: 'decision', attestation_name: 'release-gate', control: 'CTRL-1', attestation_data: { is_compliant: false } }));
    expect(res.status).toBe(201);
    const attestationId = /attestation ([0-9a-f-]{36})/.exec(res.body)![1];

    const hooks = await waitFor(() => {
      const got = at('/decisions');
      return got.some((r) => r.json.trigger === 'ON_DECISION') && got.some((r) => r.json.trigger === 'ON_ATTESTATION') && got;
    }, { what: 'ON_DECISION and ON_ATTESTATION delivered' });
    const decision = hooks.find((r) => r.json.trigger === 'ON_DECISION')!.json;
    expect(decision).toMatchObject({
      type: 'decision.recorded',
      org: org.name,
      subject: { flow: 'app', trail: 't1', control: 'CTRL-1' },
      data: { attestation_id: attestationId, attestation_name: 'release-gate', control: 'CTRL-1', is_compliant: false, reported_by: org.adminEmail },
    });
    expect(hooks.find((r) => r.json.trigger === 'ON_ATTESTATION')!.json.data).toMatchObject({ attestation_id: attestationId, attestation_type: 'decision' });

    // A decision refused (unknown control) is not recorded and fires nothing: only the one above was delivered.
    await t
      .http()
      .post(`/api/v2/attestations/${org.name}/app/trail/t1/system`)
      .set(...admin())
      .field('data_json', JSON.stringify({ type_name: 'decision', attestation_name: 'other', control: 'NOPE', attestation_data: { is_compliant: true } }))
      .expect(404);
    await t
      .http()
      .post(`/api/v2/attestations/${org.name}/app/trail/t1/generic`)
      .set(...admin())
      .field('data_json', JSON.stringify({ attestation_name: 'after', is_compliant: true }))
      .expect(201);
    await waitFor(() => at('/decisions').some((r) => r.json.trigger === 'ON_ATTESTATION' && r.json.data.attestation_name === 'after'), { what: 'the later attestation delivered' });
    expect(at('/decisions').filter((r) => r.json.trigger === 'ON_DECISION')).toHaveLength(1);
  });
});
