import { ChildProcess, spawn } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { bearer, createOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { HttpReceiver, startHttpReceiver } from '../support/receivers';
import { waitFor } from '../support/wait';

const ROOT = path.resolve(__dirname, '../..');
const SETTINGS = { ACTIONS_ALLOW_PRIVATE_TARGETS: 'true', ACTIONS_DELIVERY_TIMEOUT_MS: '1000', ACTIONS_RETRY_DELAY_SECONDS: '1' };

/**
 * No event is lost when the process that should deliver it dies: an event committed while no worker runs waits
 * in the outbox; a worker killed (SIGKILL, no shutdown of any kind) in the middle of delivering it leaves a
 * delivery another process completes after its lease runs out. The receiver sees that delivery twice, with the
 * same id: a duplicate, never a gap.
 */
describe('delivery survives a killed worker', () => {
  let api: TestApp;
  let rescuer: TestApp | undefined;
  let worker: ChildProcess | undefined;
  let receiver: HttpReceiver;

  beforeAll(async () => {
    receiver = await startHttpReceiver();
    // An API-only process: it commits events but runs no relay and no workers.
    api = await startTestApp({ ...SETTINGS, ROLE: 'api' });
  });
  afterAll(async () => {
    worker?.kill('SIGKILL');
    await rescuer?.close();
    await api?.close();
    await receiver?.close();
  });

  it('an event committed with no worker alive, and a worker killed mid-delivery: delivered after a restart', async () => {
    const org = await createOrg(api);
    const as = bearer(org.adminKey);
    await api.http().put(`/api/v2/flows/${org.name}`).set(...as).send({ name: 'app' }).expect(201);
    const action = await api
      .http()
      .put(`/api/v2/actions/${org.name}/flows`)
      .set(...as)
      .send({ name: 'crash', flows: ['app'], triggers: ['ON_ATTESTATION'], targets: [{ type: 'WEBHOOK', webhook: receiver.url('/crash') }] })
      .expect(201);
    await api.http().put(`/api/v2/trails/${org.name}/app`).set(...as).field('data_json', JSON.stringify({ name: 't1' })).expect(201);

    // 1. Committed, and no process to relay it: the event waits in the outbox.
    await api
      .http()
      .post(`/api/v2/attestations/${org.name}/app/trail/t1/generic`)
      .set(...as)
      .field('data_json', JSON.stringify({ attestation_name: 'unit', is_compliant: true }))
      .expect(201);
    const pending = await api.dataSource.query(
      `SELECT e.type, e.dispatched_at FROM outbox_events e JOIN organizations o ON o.id = e.org_id WHERE o.name = $1 AND e.type = 'attestation.recorded'`,
      [org.name],
    );
    expect(pending).toEqual([{ type: 'attestation.recorded', dispatched_at: null }]);

    // 2. A worker process starts, relays the event and starts delivering; the receiver holds the request and
    //    the worker is killed while it waits for the answer.
    let firstArrived: () => void;
    const arrived = new Promise<void>((resolve) => (firstArrived = resolve));
    receiver.reply = () => {
      firstArrived();
      return 'hang';
    };
    worker = spawn(process.execPath, ['dist/src/main.js'], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...SETTINGS,
        ROLE: 'worker',
        PORT: '0',
        DATABASE_URL: process.env.TEST_DATABASE_URL,
        ADMIN_TOKEN: 'crash-test-operator-token',
        MIGRATIONS_RUN: 'false',
        LOG_LEVEL: 'silent',
        DATA_DIR: path.join(os.tmpdir(), 'veritrail-crash-test'),
      },
      stdio: 'ignore',
    });
    const exited = new Promise<void>((resolve) => worker!.once('exit', () => resolve()));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      arrived,
      exited.then(() => Promise.reject(new Error('the worker exited before delivering'))),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('the worker did not deliver within 60 s')), 60_000))),
    ]).finally(() => clearTimeout(timer));
    worker.kill('SIGKILL');
    await exited;
    expect(worker.signalCode).toBe('SIGKILL');
    const [delivery] = await api.dataSource.query(
      `SELECT d.id, d.status, d.attempts, d.lease_until IS NOT NULL AS leased FROM action_deliveries d JOIN actions a ON a.id = d.action_id
       JOIN organizations o ON o.id = a.org_id WHERE o.name = $1 AND a.number = $2`,
      [org.name, action.body.number],
    );
    expect(delivery).toMatchObject({ status: 'pending', attempts: 0, leased: true });
    const [{ dispatched }] = await api.dataSource.query(
      `SELECT count(*)::int AS dispatched FROM outbox_events e JOIN organizations o ON o.id = e.org_id
       WHERE o.name = $1 AND e.type = 'attestation.recorded' AND e.dispatched_at IS NOT NULL`,
      [org.name],
    );
    expect(dispatched).toBe(1);

    // 3. Another process (restart) picks the delivery up once the dead worker's lease has run out.
    receiver.reply = () => 200;
    rescuer = await startTestApp(SETTINGS);
    await waitFor(() => receiver.received.length >= 2, { timeoutMs: 30_000, what: 'the delivery after the restart' });
    const [first, second] = receiver.received;
    expect(second.headers['x-veritrail-delivery']).toBe(first.headers['x-veritrail-delivery']);
    expect(second.headers['x-veritrail-delivery']).toBe(delivery.id);
    expect(second.json).toMatchObject({ id: delivery.id, trigger: 'ON_ATTESTATION', data: { attestation_name: 'unit' } });
    const attempts = (await rescuer.http().get(`/api/v2/actions/${org.name}/${action.body.number}/deliveries`).set(...as).expect(200)).body;
    expect(attempts).toEqual([expect.objectContaining({ delivery_id: delivery.id, attempt: 1, status: 'succeeded', delivery_status: 'delivered' })]);
  });
});
