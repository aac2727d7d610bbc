import { bearer, createOrg, TestOrg } from '../support/factories';
import { digest, envApi, pod } from '../support/env-helpers';
import { HttpReceiver, startHttpReceiver } from '../support/receivers';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * An environment action that names a logical environment hears its members: real reports of physical
 * environments, relayed and delivered to a real HTTP receiver on 127.0.0.1. Membership counts as it was when the
 * member's snapshot was made.
 */
describe('actions scoped to a logical environment', () => {
  let t: TestApp;
  let receiver: HttpReceiver;
  let org: TestOrg;
  let orgId: string;

  beforeAll(async () => {
    receiver = await startHttpReceiver();
    t = await startTestApp({ ACTIONS_ALLOW_PRIVATE_TARGETS: 'true', ACTIONS_RETRY_DELAY_SECONDS: '1' });
    org = await createOrg(t);
    [{ id: orgId }] = await t.dataSource.query(`SELECT id FROM organizations WHERE name = $1`, [org.name]);
  });
  afterAll(async () => {
    // Nothing of this file stays pending for the apps of later files.
    await t?.dataSource.query(`UPDATE action_deliveries SET status = 'dead' WHERE org_id = $1 AND status = 'pending'`, [orgId]).catch(() => undefined);
    await t?.close();
    await receiver?.close();
  });

  const at = (path: string) => receiver.received.filter((r) => r.path === path);
  /** Every event of the org has been relayed and every delivery of it finished: no notification is to come. */
  const quiet = async () => {
    const [{ open }] = await t.dataSource.query(
      `SELECT (SELECT count(*) FROM outbox_events WHERE org_id = $1 AND dispatched_at IS NULL)
            + (SELECT count(*) FROM action_deliveries WHERE org_id = $1 AND status = 'pending') AS open`,
      [orgId],
    );
    return Number(open) === 0;
  };

  it('fires once for a change in a member, never for a non-member, and follows membership as it changes', async () => {
    const api = envApi(t, org);
    for (const name of ['prod-eu', 'prod-us', 'staging']) await api.create({ name, type: 'K8S', description: '' }).expect(201);
    await api.create({ name: 'prod', type: 'logical', description: '', included_environments: ['prod-eu'] }).expect(201);
    const put = (body: object) => t.http().put(`/api/v2/actions/${org.name}/environments`).set(...bearer(org.adminKey)).send(body).expect(201);
    // Two actions: one names the logical environment only; one names it and a member too, and still fires once.
    await put({ name: 'prod-watch', environments: ['prod'], triggers: ['ON_STARTED_ARTIFACT'], targets: [{ type: 'WEBHOOK', webhook: receiver.url('/prod') }] });
    await put({
      name: 'prod-and-eu',
      environments: ['prod-eu', 'prod'],
      triggers: ['ON_STARTED_ARTIFACT'],
      targets: [{ type: 'WEBHOOK', webhook: receiver.url('/both') }],
    });

    // 1. prod-eu is a member: its new artifact is heard; staging and prod-us (not yet a member) are not.
    await api.report('prod-eu', 'K8S', { artifacts: [pod('eu-1', { web: digest('web-1') })] }).expect(201);
    await api.report('staging', 'K8S', { artifacts: [pod('st-1', { web: digest('web-1') })] }).expect(201);
    await api.report('prod-us', 'K8S', { artifacts: [pod('us-1', { api: digest('api-1') })] }).expect(201);
    await waitFor(quiet, { timeoutMs: 20_000, what: 'every event relayed and delivered' });
    expect(at('/prod').map((r) => [r.json.subject.environment, r.json.data.artifact_name])).toEqual([['prod-eu', 'web']]);
    expect(at('/prod')[0].json).toMatchObject({
      type: 'artifact.started',
      trigger: 'ON_STARTED_ARTIFACT',
      action: { name: 'prod-watch', type: 'env' },
      subject: { environment: 'prod-eu', environment_type: 'K8S', logical_environments: ['prod'], artifact_name: 'web' },
      matched_environments: ['prod'],
    });
    expect(at('/both').map((r) => [r.json.subject.environment, r.json.matched_environments])).toEqual([['prod-eu', ['prod', 'prod-eu']]]);

    // 2. prod-us joins and is heard from then on; prod-eu leaves (the list replaces the members) and is not.
    await api.join('prod', 'prod-us').expect(200);
    await api.create({ name: 'prod', type: 'logical', included_environments: ['prod-us'] }).expect(200);
    await api.report('prod-us', 'K8S', { artifacts: [pod('us-1', { api: digest('api-1') }), pod('us-2', { worker: digest('worker-1') })] }).expect(201);
    await api.report('prod-eu', 'K8S', { artifacts: [pod('eu-1', { web: digest('web-2') })] }).expect(201);
    await waitFor(quiet, { timeoutMs: 20_000, what: 'every event relayed and delivered' });
    // Within a step deliveries may arrive in any order: each step's are compared as a sorted list.
    const step2 = (path: string, before: number) =>
      at(path)
        .slice(before)
        .map((r) => [r.json.subject.environment, r.json.data.artifact_name, r.json.matched_environments])
        .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
    expect(step2('/prod', 1)).toEqual([['prod-us', 'worker', ['prod']]]);
    // prod-eu is named by this action itself, so its change is still heard, as prod-eu's and no longer as prod's.
    expect(step2('/both', 1)).toEqual([
      ['prod-eu', 'web', ['prod-eu']],
      ['prod-us', 'worker', ['prod']],
    ]);
    // Once each: one delivery per (event, action, target), whatever the number of names it matched by.
    expect(new Set(receiver.received.map((r) => r.json.id)).size).toBe(receiver.received.length);
  });
});
