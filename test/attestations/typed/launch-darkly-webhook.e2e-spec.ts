import { createHmac } from 'node:crypto';
import { addMember, bearer, createOrg, TestOrg } from '../../support/factories';
import { startTestApp, TestApp } from '../../support/test-app';
import { countRows } from '../../support/attestation-helpers';
import { fixture, readSlot } from './typed-helpers';

describe('LaunchDarkly webhook', () => {
  let t: TestApp;
  let org: TestOrg;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    org = await createOrg(t);
  });

  const createHook = async (options: object, as: TestOrg = org) =>
    (await t.http().post(`/api/v2/integrations/${as.name}/launch-darkly`).set(...bearer(as.adminKey)).send(options).expect(201)).body;
  /** Posts as LaunchDarkly does: the JSON body, `X-LD-Signature` the HMAC-SHA256 (hex) of it with the secret. */
  const deliver = (hook: { hook_uid: string; secret: string }, body: string, signature: string | null = createHmac('sha256', hook.secret).update(body).digest('hex')) => {
    const req = t.http().post(`/api/v2/webhooks/launch-darkly/${hook.hook_uid}`).set('Content-Type', 'application/json');
    return (signature === null ? req : req.set('X-LD-Signature', signature)).send(body);
  };
  const turnedOn = () => fixture('launchdarkly-flag-turned-on.json').toString('utf8');
  const attestationsOf = (o: TestOrg) => countRows(t, `SELECT 1 FROM attestations a JOIN organizations o ON o.id = a.org_id WHERE o.name = $1`, [o.name]);

  it("an admin binds a hook to a flow (its secret shown once); a signed flag change becomes a launch_darkly attestation on the hook's trail", async () => {
    const hook = await createHook({ flow_name: 'shop-flags' });
    expect(hook).toMatchObject({
      hook_uid: expect.stringMatching(/^[a-f0-9]{32}$/),
      secret: expect.any(String),
      flow_name: 'shop-flags',
      trail_name: 'launch-darkly-{environment}',
      app_url: 'https://app.launchdarkly.com',
    });
    expect(hook.webhook_url).toMatch(new RegExp(`/api/v2/webhooks/launch-darkly/${hook.hook_uid}$`));
    const listed = await t.http().get(`/api/v2/integrations/${org.name}/launch-darkly`).set(...bearer(org.adminKey)).expect(200);
    expect(listed.body).toEqual([expect.objectContaining({ hook_uid: hook.hook_uid, flow_name: 'shop-flags' })]);
    expect(JSON.stringify(listed.body)).not.toContain(hook.secret);

    const res = await deliver(hook, turnedOn());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: "launch_darkly attestation 'new-checkout' was reported to trail 'launch-darkly-production' of flow 'shop-flags'",
      attestation_id: expect.any(String),
      is_compliant: true,
    });
    const a = await readSlot(t, org.adminKey, org.name, 'shop-flags', 'launch-darkly-production', 'new-checkout');
    expect(a).toMatchObject({
      attestation_id: res.body.attestation_id,
      attestation_type: 'launch_darkly',
      is_compliant: true,
      reported_by: 'LaunchDarkly webhook (ana@example.com)',
      origin_url: 'https://app.launchdarkly.com/shop/production/features/new-checkout',
      description: 'ana@example.com turned on the flag',
      launch_darkly: {
        flag: 'new-checkout',
        flag_name: 'New checkout',
        project: 'shop',
        environment: 'production',
        actions: ['updateOn'],
        title: 'turned on the flag',
        changed_by: 'ana@example.com',
        changed_at: '2025-11-27T00:00:00.000Z',
        url: 'https://app.launchdarkly.com/shop/production/features/new-checkout',
        event_id: '6745f0c2a1b2c3d4e5f60718',
        comment: 'rolling out after the load test',
      },
    });
  });

  it("fills the hook's trail template from each change; later changes of a flag are newer versions of its slot", async () => {
    const hook = await createHook({ flow_name: 'flags', trail_name: 'ld-{project}-{flag}', app_url: 'https://app.eu.launchdarkly.com' });
    await deliver(hook, turnedOn()).expect(200);
    const off = JSON.parse(turnedOn());
    off.accesses = [{ action: 'updateOn', resource: 'proj/shop:env/staging:flag/new-checkout' }];
    off.titleVerb = 'turned off the flag';
    off.member = { email: 'bo@example.com' };
    off.date = 1764205200000;
    off._links.site.href = '/shop/staging/features/new-checkout';
    await deliver(hook, JSON.stringify(off)).expect(200);

    const versions = await t.http().get(`/api/v2/attestations/${org.name}/flags/trail/ld-shop-new-checkout/new-checkout`).set(...bearer(org.adminKey)).expect(200);
    expect(versions.body.map((v: any) => [v.launch_darkly.environment, v.launch_darkly.title, v.launch_darkly.changed_by, v.origin_url])).toEqual([
      ['staging', 'turned off the flag', 'bo@example.com', 'https://app.eu.launchdarkly.com/shop/staging/features/new-checkout'],
      ['production', 'turned on the flag', 'ana@example.com', 'https://app.eu.launchdarkly.com/shop/production/features/new-checkout'],
    ]);
    // The trail's compliance counts the slot: a flag change is compliant.
    const trail = await t.http().get(`/api/v2/trails/${org.name}/flags/ld-shop-new-checkout`).set(...bearer(org.adminKey)).expect(200);
    expect(trail.body.compliance_status).toMatchObject({
      status: 'COMPLIANT',
      attestations_statuses: [expect.objectContaining({ attestation_name: 'new-checkout', attestation_type: 'launch_darkly', is_compliant: true })],
    });
  });

  it('401 for a wrong or missing signature, 404 for an unknown or deleted hook, 400 for a body that is not an event: nothing stored', async () => {
    const hook = await createHook({ flow_name: 'shop-flags' });
    const body = turnedOn();
    const forged = await deliver(hook, body, createHmac('sha256', 'not-the-secret').update(body).digest('hex'));
    expect([forged.status, forged.body]).toEqual([401, { message: 'The X-LD-Signature header is missing or does not match the webhook secret', errors: null }]);
    expect((await deliver(hook, body, null)).status).toBe(401);
    // The signature is over the exact bytes: the same JSON re-serialised is not what was signed.
    const reformatted = JSON.stringify(JSON.parse(body));
    expect((await deliver(hook, reformatted, createHmac('sha256', hook.secret).update(body).digest('hex'))).status).toBe(401);

    const noFlag = await deliver(hook, JSON.stringify({ ...JSON.parse(body), accesses: [{ action: 'updateOn', resource: 'proj/shop:env/production' }], target: {} }));
    expect([noFlag.status, Object.keys(noFlag.body.errors)]).toEqual([400, ['accesses']]);
    const notObject = await deliver(hook, '[1,2]');
    expect([notObject.status, Object.keys(notObject.body.errors)]).toEqual([400, ['body']]);
    const noKind = await deliver(hook, '{"_id":"x"}');
    expect([noKind.status, Object.keys(noKind.body.errors)]).toEqual([400, ['kind']]);
    const unknown = await deliver({ hook_uid: 'f'.repeat(32), secret: hook.secret }, body);
    expect([unknown.status, unknown.body.message]).toEqual([404, 'LaunchDarkly webhook not found']);
    // Not a flag (a member invited): acknowledged so LaunchDarkly does not retry it, and not recorded.
    const member = await deliver(hook, JSON.stringify({ _id: 'm1', kind: 'member', date: 1764201600000, accesses: [{ action: 'createMember', resource: 'member/5f1e' }] }));
    expect([member.status, member.body]).toEqual([200, { message: "'member' events are not recorded", attestation_id: null, is_compliant: null }]);
    expect(await attestationsOf(org)).toBe(0);

    await t.http().delete(`/api/v2/integrations/${org.name}/launch-darkly/${hook.hook_uid}`).set(...bearer(org.adminKey)).expect(200);
    expect((await deliver(hook, body)).status).toBe(404);
    expect((await t.http().delete(`/api/v2/integrations/${org.name}/launch-darkly/${hook.hook_uid}`).set(...bearer(org.adminKey))).status).toBe(404);
    expect(await attestationsOf(org)).toBe(0);
  });

  it("only an org admin manages hooks; a hook records into its own org only, and another org's admin cannot see or delete it", async () => {
    const member = await addMember(t, org.name, 'member');
    expect((await t.http().post(`/api/v2/integrations/${org.name}/launch-darkly`).set(...bearer(member)).send({ flow_name: 'f' })).status).toBe(403);
    expect((await t.http().get(`/api/v2/integrations/${org.name}/launch-darkly`).set(...bearer(member))).status).toBe(403);
    const bad = await t.http().post(`/api/v2/integrations/${org.name}/launch-darkly`).set(...bearer(org.adminKey)).send({ trail_name: 'x {env}', app_url: 'ftp://x' });
    expect([bad.status, Object.keys(bad.body.errors).sort()]).toEqual([400, ['app_url', 'flow_name', 'trail_name']]);

    const other = await createOrg(t);
    const hook = await createHook({ flow_name: 'shop-flags' });
    const theirs = await createHook({ flow_name: 'shop-flags' }, other);
    await deliver(hook, turnedOn()).expect(200);
    expect(await attestationsOf(org)).toBe(1);
    expect(await attestationsOf(other)).toBe(0);
    // Their secret does not sign for our hook.
    expect((await deliver({ hook_uid: hook.hook_uid, secret: theirs.secret }, turnedOn())).status).toBe(401);
    expect((await t.http().get(`/api/v2/integrations/${other.name}/launch-darkly`).set(...bearer(other.adminKey)).expect(200)).body.map((h: any) => h.hook_uid)).toEqual([theirs.hook_uid]);
    expect((await t.http().delete(`/api/v2/integrations/${other.name}/launch-darkly/${hook.hook_uid}`).set(...bearer(other.adminKey))).status).toBe(404);
    expect((await deliver(hook, turnedOn())).status).toBe(200);
    expect(await t.http().get(`/api/v2/trails/${other.name}/shop-flags/launch-darkly-production`).set(...bearer(other.adminKey))).toHaveProperty('status', 404);
  });
});
