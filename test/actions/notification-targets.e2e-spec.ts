import { NotificationTargetDefinition, NotificationTargetRegistry } from '../../src/modules/actions/actions.module';
import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp, uniqueName } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * Notification targets are a registry: a type registered beside the built-in ones is accepted by the action
 * routes (with the fields it declares, and no others), stored with its defaults, and its deliveries are sent
 * through its own `send`. The fake type here records what it was asked to send instead of sending it.
 */
describe('a notification target type added to the registry', () => {
  let t: TestApp;
  let org: TestOrg;
  const sent: Array<{ target: Record<string, unknown>; event: string; delivery: string; trigger: string }> = [];
  const FAKE: NotificationTargetDefinition = {
    type: 'FAKE_PAGER',
    fields: { webhook: 'required', payload_version: 'optional' },
    defaults: { payload_version: '1.0' },
    receiverKey: (target) => `fake:${target.webhook}`,
    async send(target, notification) {
      sent.push({ target: { ...target }, event: notification.ctx.event.type, delivery: notification.headers['X-Veritrail-Delivery'], trigger: notification.ctx.trigger });
      return { ok: true, statusCode: 200, error: null };
    },
  };

  beforeAll(async () => {
    t = await startTestApp({ ACTIONS_ALLOW_PRIVATE_TARGETS: 'true', ACTIONS_RETRY_DELAY_SECONDS: '1' });
    t.app.get(NotificationTargetRegistry, { strict: false }).register(FAKE);
    org = await createOrg(t);
    await t.http().put(`/api/v2/flows/${org.name}`).set(...bearer(org.adminKey)).send({ name: 'app' }).expect(201);
  });
  afterAll(() => t?.close());

  const put = (body: object) => t.http().put(`/api/v2/actions/${org.name}/flows`).set(...bearer(org.adminKey)).send(body);

  it('is refused twice, like every registry', () => {
    expect(() => t.app.get(NotificationTargetRegistry, { strict: false }).register({ ...FAKE })).toThrow(/registered twice/);
  });

  it('the action routes take it with its own fields, refuse fields it does not declare, and store its defaults', async () => {
    const name = uniqueName('pager');
    const created = await put({ name, flows: ['app'], triggers: ['ON_STARTED_TRAIL'], targets: [{ type: 'FAKE_PAGER', webhook: 'http://127.0.0.1:9/pager' }] }).expect(201);
    expect(created.body.targets).toEqual([{ type: 'FAKE_PAGER', webhook: 'http://127.0.0.1:9/pager', payload_version: '1.0' }]);

    const extra = await put({ name, flows: ['app'], triggers: ['ON_STARTED_TRAIL'], targets: [{ type: 'FAKE_PAGER', webhook: 'http://127.0.0.1:9/p', emails: ['a@example.com'] }] }).expect(400);
    expect(extra.body.errors).toEqual({ 'targets[0].emails': 'is not a field of a FAKE_PAGER target' });
    const missing = await put({ name, flows: ['app'], triggers: ['ON_STARTED_TRAIL'], targets: [{ type: 'FAKE_PAGER' }] }).expect(400);
    expect(Object.keys(missing.body.errors)).toEqual(['targets[0].webhook']);
    const unknown = await put({ name, flows: ['app'], triggers: ['ON_STARTED_TRAIL'], targets: [{ type: 'NOPE' }] }).expect(400);
    expect(unknown.body.errors['targets[0].type']).toMatch(/SLACK, WEBHOOK, EMAIL, FAKE_PAGER$/);

    // its deliveries go through its own send
    await t.http().put(`/api/v2/trails/${org.name}/app`).set(...bearer(org.adminKey)).field('data_json', JSON.stringify({ name: 'main' })).expect(201);
    const [delivered] = await waitFor(() => (sent.length ? sent : undefined), { what: 'the fake target asked to send' });
    expect(delivered).toMatchObject({ target: { type: 'FAKE_PAGER', webhook: 'http://127.0.0.1:9/pager' }, event: 'trail.started', trigger: 'ON_STARTED_TRAIL' });
    const number = created.body.number;
    const attempts = await waitFor(
      async () => {
        const res = await t.http().get(`/api/v2/actions/${org.name}/${number}/deliveries`).set(...bearer(org.adminKey)).expect(200);
        return res.body.length ? res.body : undefined;
      },
      { what: 'the attempt recorded' },
    );
    expect(attempts[0]).toMatchObject({ status: 'succeeded', delivery_status: 'delivered', target: { type: 'FAKE_PAGER' } });
  });
});
