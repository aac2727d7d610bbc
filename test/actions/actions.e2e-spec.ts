import { randomUUID } from 'node:crypto';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { Outbox } from '../../src/modules/outbox/outbox.module';
import { addMember, bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp, uniqueName } from '../support/test-app';
import { HttpReceiver, startHttpReceiver } from '../support/receivers';
import { waitFor } from '../support/wait';

/**
 * Actions (notification rules) as the routes see them: upsert by name, list (spec op 11), read, delete, the
 * legacy environments-notification routes (spec op 13), validation, and the SSRF checks at save and at send
 * time. This app runs with the default policy: private, loopback and link-local targets are refused.
 */
describe('actions', () => {
  let t: TestApp;
  let org: TestOrg;
  let receiver: HttpReceiver;

  beforeAll(async () => {
    t = await startTestApp({ ACTIONS_DELIVERY_TIMEOUT_MS: '1000', ACTIONS_RETRY_DELAY_SECONDS: '1' });
    org = await createOrg(t);
    receiver = await startHttpReceiver();
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  const admin = () => bearer(org.adminKey);
  const put = (kind: 'flows' | 'environments', body: object, key = org.adminKey) =>
    t.http().put(`/api/v2/actions/${org.name}/${kind}`).set(...bearer(key)).send(body);
  // A public address, accepted without a DNS lookup. Nothing is ever sent to it: no event of these tests is in
  // the flow these actions watch (tests send only to 127.0.0.1).
  const public1 = 'https://93.184.216.34/hooks/veritrail';
  const flowAction = (over: object = {}) => ({
    name: uniqueName('release'),
    flows: ['quiet-flow'],
    triggers: ['ON_ATTESTATION'],
    targets: [{ type: 'WEBHOOK', webhook: public1, secret: 'not-shown-anywhere' }],
    ...over,
  });

  describe('CRUD', () => {
    it('PUT creates (201) and then updates by name (200), keeping the number; GET shows the action record', async () => {
      const body = flowAction({ triggers: ['ON_ATTESTATION', 'ON_STARTED_TRAIL'] });
      const created = await put('flows', body).expect(201);
      expect(created.body).toEqual({
        name: body.name,
        type: 'flow',
        number: expect.any(Number),
        targets: [{ type: 'WEBHOOK', webhook: public1, payload_version: '1.0' }],
        triggers: ['ON_ATTESTATION', 'ON_STARTED_TRAIL'],
        created_by: org.adminEmail,
        is_created_from_chat_app: false,
        is_created_from_slack_app: false,
        last_modified_at: expect.any(Number),
        is_failing: false,
        last_success_timestamp: null,
        last_failure_timestamp: null,
        created_at: expect.any(Number),
        flows: ['quiet-flow'],
        environments: [],
      });
      const updated = await put('flows', { ...body, flows: ['quiet-flow', 'quiet-web'], targets: [{ type: 'SLACK', webhook: public1 }] }).expect(200);
      expect(updated.body).toMatchObject({ number: created.body.number, flows: ['quiet-flow', 'quiet-web'], targets: [{ type: 'SLACK', webhook: public1 }] });
      expect(updated.body.last_modified_at).toBeGreaterThanOrEqual(created.body.last_modified_at);

      const got = await t.http().get(`/api/v2/actions/${org.name}/${created.body.number}`).set(...admin()).expect(200);
      expect(got.body).toEqual(updated.body);
      const list = await t.http().get(`/api/v2/actions/${org.name}`).set(...admin()).expect(200);
      expect(list.body.find((a: any) => a.name === body.name)).toEqual(updated.body);
    });

    it('numbers actions per org 1, 2, ... and never reuses a deleted number', async () => {
      const other = await createOrg(t);
      const as = bearer(other.adminKey);
      const first = await t.http().put(`/api/v2/actions/${other.name}/flows`).set(...as).send(flowAction()).expect(201);
      const second = await t
        .http()
        .put(`/api/v2/actions/${other.name}/environments`)
        .set(...as)
        .send({ name: 'prod-watch', environments: ['quiet-env'], triggers: ['ON_STARTED_ARTIFACT'], targets: [{ type: 'EMAIL', emails: ['ops@example.com'] }] })
        .expect(201);
      expect([first.body.number, second.body.number]).toEqual([1, 2]);
      const deleted = await t.http().delete(`/api/v2/actions/${other.name}/2`).set(...as).set('Content-Type', 'application/json').send('null').expect(200);
      expect(typeof deleted.body).toBe('string');
      await t.http().get(`/api/v2/actions/${other.name}/2`).set(...as).expect(404, { message: 'Action not found', errors: null });
      await t.http().delete(`/api/v2/actions/${other.name}/2`).set(...as).expect(404);
      const third = await t.http().put(`/api/v2/actions/${other.name}/flows`).set(...as).send(flowAction()).expect(201);
      expect(third.body.number).toBe(3);
      expect((await t.http().get(`/api/v2/actions/${other.name}`).set(...as).expect(200)).body.map((a: any) => a.number)).toEqual([1, 3]);
    });

    it('never shows a webhook secret', async () => {
      const body = flowAction({ targets: [{ type: 'WEBHOOK', webhook: public1, secret: 'very-secret-value' }] });
      const created = await put('flows', body).expect(201);
      for (const res of [
        created,
        await t.http().get(`/api/v2/actions/${org.name}`).set(...admin()),
        await t.http().get(`/api/v2/actions/${org.name}/${created.body.number}`).set(...admin()),
      ]) {
        expect(JSON.stringify(res.body)).not.toContain('very-secret-value');
      }
    });

    it('a name is one action: the same name as the other type is a conflict (409)', async () => {
      const body = flowAction();
      await put('flows', body).expect(201);
      const res = await put('environments', { name: body.name, environments: ['quiet-env'], triggers: ['ON_COMPLIANT_ENV'], targets: body.targets });
      expect(res.status).toBe(409);
    });

    it('needs admin to write; any member reads', async () => {
      const member = await addMember(t, org.name, 'member');
      const reader = await addMember(t, org.name, 'reader');
      await put('flows', flowAction(), member).expect(403);
      const created = await put('flows', flowAction()).expect(201);
      await t.http().delete(`/api/v2/actions/${org.name}/${created.body.number}`).set(...bearer(member)).expect(403);
      await t.http().get(`/api/v2/actions/${org.name}`).set(...bearer(reader)).expect(200);
      await t.http().get(`/api/v2/actions/${org.name}/${created.body.number}/deliveries`).set(...bearer(reader)).expect(200, []);
    });

    it.each([
      ['an unknown trigger', { triggers: ['ON_RELEASE'] }, 'triggers'],
      ['an environment trigger on a flow action', { triggers: ['ON_STARTED_ARTIFACT'] }, 'triggers'],
      ['no targets', { targets: [] }, 'targets'],
      ['a bad name', { name: '/starts-with-slash' }, 'name'],
      ['a bad flow name', { flows: ['no spaces'] }, 'flows'],
      ['an unknown target type', { targets: [{ type: 'PAGER', webhook: public1 }] }, 'targets[0].type'],
      ['a webhook without its URL', { targets: [{ type: 'WEBHOOK' }] }, 'targets[0].webhook'],
      ['an e-mail target without addresses', { targets: [{ type: 'EMAIL' }] }, 'targets[0].emails'],
      ['a bad e-mail address', { targets: [{ type: 'EMAIL', emails: ['not-an-address'] }] }, 'targets[0].emails'],
      ['addresses on a webhook', { targets: [{ type: 'WEBHOOK', webhook: public1, emails: ['a@example.com'] }] }, 'targets[0].emails'],
      ['a secret on a Slack target', { targets: [{ type: 'SLACK', webhook: public1, secret: 'x' }] }, 'targets[0].secret'],
      ['an unknown target field', { targets: [{ type: 'SLACK', webhook: public1, channel: 'x' }] }, 'targets[0].channel'],
      ['an unknown field', { flow: 'app' }, 'flow'],
      ['a non-http URL', { targets: [{ type: 'WEBHOOK', webhook: 'ftp://93.184.216.34/x' }] }, 'targets[0].webhook'],
    ])('400 for %s', async (_, over, field) => {
      const res = await put('flows', flowAction(over));
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Input payload validation failed');
      expect(Object.keys(res.body.errors)).toContain(field);
    });

    it('takes the reference target fields a client may send back (read-only timestamps, payload version, Slack context)', async () => {
      const res = await put(
        'flows',
        flowAction({
          targets: [
            { type: 'WEBHOOK', webhook: public1, payload_version: '1.0', last_success_at: 1700000000, last_failure_at: null },
            { type: 'SLACK', webhook: public1, context: { channel_id: 'C1', channel_name: 'releases', team_id: 'T1' } },
          ],
        }),
      ).expect(201);
      expect(res.body.targets).toEqual([
        { type: 'WEBHOOK', webhook: public1, payload_version: '1.0' },
        { type: 'SLACK', webhook: public1, context: { channel_id: 'C1', channel_name: 'releases', team_id: 'T1' } },
      ]);
    });

    it('400 for an action number that is not a positive integer; 404 for an unknown one', async () => {
      for (const bad of ['abc', '0', '-1', '1.5']) {
        const res = await t.http().get(`/api/v2/actions/${org.name}/${bad}`).set(...admin());
        expect(res.status).toBe(400);
        expect(res.body.errors).toEqual({ 'path.number': 'must be a positive integer' });
      }
      await t.http().get(`/api/v2/actions/${org.name}/99999`).set(...admin()).expect(404, { message: 'Action not found', errors: null });
    });
  });

  describe('legacy environments notifications (spec op 13)', () => {
    const envBody = () => ({
      name: uniqueName('prod-notify'),
      environments: ['quiet-prod', 'quiet-staging'],
      triggers: ['ON_STARTED_ARTIFACT', 'ON_NON_COMPLIANT_ENV'],
      targets: [{ type: 'WEBHOOK', webhook: public1 }],
    });
    const legacy = (path = '') => `/api/v2/organizations/${org.name}/environments_notifications${path}`;

    it('PUT creates an environment action (201, then 200); only environment actions are seen here', async () => {
      const body = envBody();
      const created = await t.http().put(legacy()).set(...admin()).send(body).expect(201);
      expect(created.body).toMatchObject({ name: body.name, type: 'env', environments: ['quiet-prod', 'quiet-staging'], flows: [] });
      await t.http().put(legacy()).set(...admin()).send({ ...body, type: 'env' }).expect(200);
      const flow = await put('flows', flowAction()).expect(201);
      const listed = (await t.http().get(legacy()).set(...admin()).expect(200)).body;
      expect(listed.every((a: any) => a.type === 'env')).toBe(true);
      expect(listed.map((a: any) => a.number)).toContain(created.body.number);
      await t.http().get(legacy(`/${created.body.number}`)).set(...admin()).expect(200);
      await t.http().get(legacy(`/${flow.body.number}`)).set(...admin()).expect(404);
      // the same action through /actions
      expect((await t.http().get(`/api/v2/actions/${org.name}/${created.body.number}`).set(...admin()).expect(200)).body.name).toBe(body.name);
    });

    it('DELETE: 200 with a string body; then 404 Action not found; a flow action is not found here; 400 for a bad number', async () => {
      const created = await t.http().put(legacy()).set(...admin()).send(envBody()).expect(201);
      const flow = await put('flows', flowAction()).expect(201);
      await t.http().delete(legacy(`/${flow.body.number}`)).set(...admin()).expect(404, { message: 'Action not found', errors: null });
      await t.http().get(`/api/v2/actions/${org.name}/${flow.body.number}`).set(...admin()).expect(200);

      const res = await t.http().delete(legacy(`/${created.body.number}`)).set(...admin()).set('Content-Type', 'application/json').send('null');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(typeof res.body).toBe('string');
      await t.http().delete(legacy(`/${created.body.number}`)).set(...admin()).expect(404, { message: 'Action not found', errors: null });
      for (const bad of ['x', '0', '-3']) {
        const r = await t.http().delete(legacy(`/${bad}`)).set(...admin());
        expect(r.status).toBe(400);
        expect(r.body.errors).toEqual({ 'path.notification_number': 'must be a positive integer' });
      }
    });

    it('validates like PUT /actions/{org}/environments', async () => {
      const res = await t.http().put(legacy()).set(...admin()).send({ ...envBody(), triggers: ['ON_ATTESTATION'] });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual(['triggers']);
    });
  });

  describe('subscriptions', () => {
    it("an org's outbox subscriptions follow its live actions' triggers", async () => {
      const other = await createOrg(t);
      const [{ id }] = await t.dataSource.query(`SELECT id FROM organizations WHERE name = $1`, [other.name]);
      const subscribed = async () =>
        (await t.dataSource.query(`SELECT event_type FROM outbox_subscriptions WHERE org_id = $1 ORDER BY event_type`, [id])).map((r: any) => r.event_type);
      const as = bearer(other.adminKey);
      expect(await subscribed()).toEqual([]);
      const a = await t.http().put(`/api/v2/actions/${other.name}/flows`).set(...as).send(flowAction({ triggers: ['ON_NON_COMPLIANT_TRAIL', 'ON_STARTED_TRAIL'] })).expect(201);
      expect(await subscribed()).toEqual(['attestation.recorded', 'trail.started']);
      await t
        .http()
        .put(`/api/v2/actions/${other.name}/environments`)
        .set(...as)
        .send({ name: 'env', environments: ['quiet-env'], triggers: ['ON_COMPLIANT_ENV'], targets: [{ type: 'EMAIL', emails: ['ops@example.com'] }] })
        .expect(201);
      expect(await subscribed()).toEqual(['attestation.recorded', 'environment.compliance_changed', 'trail.started']);
      await t.http().delete(`/api/v2/actions/${other.name}/${a.body.number}`).set(...as).expect(200);
      expect(await subscribed()).toEqual(['environment.compliance_changed']);
    });
  });

  describe('SSRF', () => {
    it.each([
      ['loopback', 'http://127.0.0.1:9/hook'],
      ['loopback, another form', 'http://127.1/hook'],
      ['a decimal loopback', 'http://2130706433/hook'],
      ['IPv6 loopback', 'http://[::1]:9/hook'],
      ['an IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/hook'],
      ['a private address', 'http://10.0.0.1/hook'],
      ['another private range', 'https://192.168.1.10/hook'],
      ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data/'],
      ['an IPv6 unique local address', 'http://[fd00::1]/hook'],
      ['a name that resolves to loopback', 'http://localhost:9/hook'],
      ['the unspecified address', 'http://0.0.0.0/hook'],
    ])('refuses %s at save time', async (_, url) => {
      const res = await put('flows', flowAction({ targets: [{ type: 'WEBHOOK', webhook: url }] }));
      expect(res.status).toBe(400);
      expect(res.body.errors['targets[0].webhook']).toMatch(/private|loopback|reserved/);
    });

    it('refuses a private address at send time too (a name that resolves there now, a target saved some other way)', async () => {
      const other = await createOrg(t);
      const [{ id }] = await t.dataSource.query(`SELECT id FROM organizations WHERE name = $1`, [other.name]);
      // A public target, then its targets rewritten behind the API's back, as a DNS change would from outside.
      const action = await t.http().put(`/api/v2/actions/${other.name}/flows`).set(...bearer(other.adminKey)).send(flowAction({ flows: ['app'] })).expect(201);
      const port = new URL(receiver.url()).port;
      await t.dataSource.query(`UPDATE actions SET targets = $3 WHERE org_id = $1 AND number = $2`, [
        id,
        action.body.number,
        JSON.stringify([
          { type: 'WEBHOOK', webhook: `http://localhost:${port}/by-name` },
          { type: 'WEBHOOK', webhook: `http://127.0.0.1:${port}/by-address` },
        ]),
      ]);
      const uow = t.app.get(UnitOfWork, { strict: false });
      const outbox = t.app.get(Outbox, { strict: false });
      await uow.run((manager) =>
        outbox.append(manager, {
          orgId: id,
          type: 'attestation.recorded',
          subject: { flow: 'app', trail: 't' },
          payload: { attestation_id: randomUUID(), attestation_name: 'unit', attestation_type: 'generic', is_compliant: true, moment_number: 2 },
        }),
      );
      const attempts = await waitFor(async () => {
        const res = await t.http().get(`/api/v2/actions/${other.name}/${action.body.number}/deliveries`).set(...bearer(other.adminKey)).expect(200);
        return res.body.length === 2 ? res.body : undefined;
      }, { timeoutMs: 10_000, what: 'two refused attempts' });
      for (const attempt of attempts) {
        expect(attempt).toMatchObject({ status: 'failed', status_code: null, delivery_status: 'dead', event_type: 'attestation.recorded' });
        expect(attempt.error).toMatch(/^refused: .*(loopback|private)/);
      }
      expect(attempts.map((a: any) => a.error).join()).toMatch(/localhost resolves to/);
      expect(receiver.received).toEqual([]);
      const after = (await t.http().get(`/api/v2/actions/${other.name}/${action.body.number}`).set(...bearer(other.adminKey)).expect(200)).body;
      expect(after.is_failing).toBe(true);
    });
  });
});
