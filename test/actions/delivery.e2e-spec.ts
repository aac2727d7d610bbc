import { createHmac, randomUUID } from 'node:crypto';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { Outbox, OutboxEvent } from '../../src/modules/outbox/outbox.module';
import { DeliveryRepository } from '../../src/modules/actions/persistence/delivery.repository';
import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { HttpReceiver, ReceivedMail, ReceivedRequest, startHttpReceiver, startSmtpReceiver } from '../support/receivers';
import { waitFor } from '../support/wait';

/**
 * Notifications end to end: events raised by real requests (begin trail, attest) or appended to the outbox as
 * the modules that will raise them are documented to (decisions, environment events: those modules are not
 * built yet), relayed, and delivered to a real HTTP receiver and a real SMTP server on 127.0.0.1.
 */
describe('notification delivery', () => {
  let t: TestApp;
  let receiver: HttpReceiver;
  let smtp: { url: string; messages: ReceivedMail[]; close(): Promise<void> };
  let org: TestOrg;
  let orgId: string;
  const SECRET = 'whsec-test-secret';

  beforeAll(async () => {
    receiver = await startHttpReceiver();
    smtp = await startSmtpReceiver();
    t = await startTestApp({
      ACTIONS_ALLOW_PRIVATE_TARGETS: 'true',
      SMTP_URL: smtp.url,
      SMTP_FROM: 'Veritrail <veritrail@example.com>',
      ACTIONS_DELIVERY_TIMEOUT_MS: '1500',
      ACTIONS_RETRY_DELAY_SECONDS: '1',
      ACTIONS_DELIVERY_ATTEMPTS: '4',
    });
    org = await createOrg(t);
    [{ id: orgId }] = await t.dataSource.query(`SELECT id FROM organizations WHERE name = $1`, [org.name]);
    await t.http().put(`/api/v2/flows/${org.name}`).set(...admin()).send({ name: 'app' }).expect(201);
  });
  afterAll(async () => {
    // Nothing of this file stays pending for the apps of later files.
    await t?.dataSource.query(`UPDATE action_deliveries SET status = 'dead' WHERE org_id = $1 AND status = 'pending'`, [orgId]).catch(() => undefined);
    await t?.close();
    await receiver?.close();
    await smtp?.close();
  });

  const admin = () => bearer(org.adminKey);
  const at = (path: string) => receiver.received.filter((r) => r.path === path);
  const createAction = async (kind: 'flows' | 'environments', body: object) =>
    (await t.http().put(`/api/v2/actions/${org.name}/${kind}`).set(...admin()).send(body).expect(201)).body;
  const beginTrail = (trail: string) =>
    t.http().put(`/api/v2/trails/${org.name}/app`).set(...admin()).field('data_json', JSON.stringify({ name: trail })).expect(201);
  const attest = (trail: string, name: string, compliant: boolean) =>
    t
      .http()
      .post(`/api/v2/attestations/${org.name}/app/trail/${trail}/generic`)
      .set(...admin())
      .field('data_json', JSON.stringify({ attestation_name: name, is_compliant: compliant }))
      .expect(201);
  const append = (...events: Array<Omit<OutboxEvent, 'orgId'>>) =>
    t.app.get(UnitOfWork, { strict: false }).run((manager) =>
      t.app.get(Outbox, { strict: false }).append(manager, ...events.map((e) => ({ ...e, orgId }))),
    );
  const deliveryIds = async (actionNumber: number): Promise<string[]> =>
    (
      await t.dataSource.query(
        `SELECT d.id FROM action_deliveries d JOIN actions a ON a.id = d.action_id WHERE a.org_id = $1 AND a.number = $2`,
        [orgId, actionNumber],
      )
    ).map((r: any) => r.id);
  /** Every delivery of the action is finished and every job of those deliveries has run: no attempt is to come. */
  const settled = async (actionNumber: number) => {
    const ids = await deliveryIds(actionNumber);
    const [{ open }] = await t.dataSource.query(
      `SELECT (SELECT count(*) FROM action_deliveries WHERE id = ANY($1::uuid[]) AND status = 'pending')
            + (SELECT count(*) FROM pgboss.job WHERE name = 'action-delivery' AND state < 'completed' AND (data->>'deliveryId')::uuid = ANY($1::uuid[])) AS open`,
      [ids],
    );
    return Number(open) === 0 ? ids : undefined;
  };
  const verifySigned = (r: ReceivedRequest) => {
    expect(r.headers['x-signature-256']).toBe('sha256=' + createHmac('sha256', SECRET).update(r.raw).digest('hex'));
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['x-veritrail-delivery']).toBe(r.json.id);
    expect(r.headers['idempotency-key']).toBe(r.json.id);
    expect(r.headers['x-veritrail-timestamp']).toBe(String(r.json.timestamp));
    expect(Math.abs(r.json.timestamp - Date.now() / 1000)).toBeLessThan(60);
    expect(r.headers['x-veritrail-event']).toBe(r.json.type);
  };

  it('every flow trigger delivers once, signed, to a webhook, to Slack and by e-mail; another flow hears nothing', async () => {
    const all = await createAction('flows', {
      name: 'everything-about-app',
      flows: ['app'],
      triggers: ['ON_STARTED_TRAIL', 'ON_ATTESTATION', 'ON_NON_COMPLIANT_TRAIL', 'ON_COMPLIANT_TRAIL', 'ON_DECISION'],
      targets: [
        { type: 'WEBHOOK', webhook: receiver.url('/flow-hook'), secret: SECRET },
        { type: 'SLACK', webhook: receiver.url('/flow-slack') },
        { type: 'EMAIL', emails: ['dev@example.com', 'qa@example.com'] },
      ],
    });
    const elsewhere = await createAction('flows', {
      name: 'other-flow',
      flows: ['other'],
      triggers: ['ON_STARTED_TRAIL', 'ON_ATTESTATION'],
      targets: [{ type: 'WEBHOOK', webhook: receiver.url('/other-flow') }],
    });

    await beginTrail('t1'); //                   ON_STARTED_TRAIL (no template: the trail starts COMPLIANT)
    await attest('t1', 'unit', true); //          ON_ATTESTATION
    await attest('t1', 'lint', false); //         ON_ATTESTATION, ON_NON_COMPLIANT_TRAIL
    await attest('t1', 'lint', true); //          ON_ATTESTATION, ON_COMPLIANT_TRAIL
    const decisionId = randomUUID();
    await append({
      type: 'decision.recorded',
      subject: { flow: 'app', trail: 't1' },
      payload: { attestation_id: decisionId, attestation_name: 'release-gate', control: 'ctrl-1', is_compliant: true, evaluation_id: randomUUID() },
    }); //                                       ON_DECISION

    const expected = ['ON_ATTESTATION', 'ON_ATTESTATION', 'ON_ATTESTATION', 'ON_COMPLIANT_TRAIL', 'ON_DECISION', 'ON_NON_COMPLIANT_TRAIL', 'ON_STARTED_TRAIL'];
    // The e2e specs share one database and so one job queue: a delivery another spec's app left behind (its app
    // closed first) is done by whichever app runs next, through that app's SMTP server. Only this org's count.
    const mails = () => smtp.messages.filter((m) => m.subject.startsWith(`[Veritrail] ${org.name}: `));
    await waitFor(() => at('/flow-hook').length >= 7 && at('/flow-slack').length >= 7 && mails().length >= 7, { timeoutMs: 15_000, what: '7 deliveries per target' });
    await waitFor(() => settled(all.number), { timeoutMs: 15_000, what: 'deliveries and their jobs settled' });

    const hooks = at('/flow-hook');
    expect(hooks.map((r) => r.json.trigger).sort()).toEqual(expected);
    expect(new Set(hooks.map((r) => r.json.id)).size).toBe(7);
    for (const r of hooks) {
      verifySigned(r);
      expect(r.json).toMatchObject({ payload_version: '1.0', org: org.name, action: { number: all.number, name: 'everything-about-app', type: 'flow' } });
    }
    const byTrigger = (trigger: string) => hooks.find((r) => r.json.trigger === trigger)!.json;
    expect(byTrigger('ON_STARTED_TRAIL')).toMatchObject({ type: 'trail.started', subject: { flow: 'app', trail: 't1' }, data: { created_by: org.adminEmail } });
    expect(byTrigger('ON_NON_COMPLIANT_TRAIL')).toMatchObject({
      type: 'trail.compliance_changed',
      subject: { flow: 'app', trail: 't1' },
      data: { status: 'NON-COMPLIANT', previous_status: 'COMPLIANT', moment_number: 3, attestation_name: 'lint' },
    });
    expect(byTrigger('ON_COMPLIANT_TRAIL').data).toMatchObject({ status: 'COMPLIANT', previous_status: 'NON-COMPLIANT', moment_number: 4 });
    expect(byTrigger('ON_DECISION')).toMatchObject({ type: 'decision.recorded', data: { attestation_id: decisionId, control: 'ctrl-1' } });
    const attestations = hooks.filter((r) => r.json.trigger === 'ON_ATTESTATION').map((r) => r.json.data);
    expect(attestations.map((d) => [d.attestation_name, d.is_compliant, d.moment_number]).sort()).toEqual([
      ['lint', false, 3],
      ['lint', true, 4],
      ['unit', true, 2],
    ]);

    const slack = at('/flow-slack');
    expect(slack.map((r) => r.headers['x-signature-256'])).toEqual(Array(7).fill(undefined));
    for (const r of slack) {
      expect(r.json.text).toMatch(new RegExp(`^\\[${org.name}\\] `));
      expect(r.json.blocks[0]).toMatchObject({ type: 'section', text: { type: 'mrkdwn' } });
    }
    expect(slack.map((r) => r.json.text)).toContainEqual(`[${org.name}] Trail app/t1 is now NON-COMPLIANT (was COMPLIANT)`);

    expect(mails()).toHaveLength(7);
    for (const m of mails()) {
      expect(m.to.sort()).toEqual(['dev@example.com', 'qa@example.com']);
      expect(m.from).toBe('veritrail@example.com');
      expect(m.subject).toMatch(new RegExp(`^\\[Veritrail\\] ${org.name}: `));
    }
    expect(mails().map((m) => m.subject)).toContainEqual(`[Veritrail] ${org.name}: Trail app/t1 started`);

    expect(at('/other-flow')).toEqual([]);
    expect(await deliveryIds(elsewhere.number)).toEqual([]);
    // each delivery: one attempt, succeeded
    const attempts = (await t.http().get(`/api/v2/actions/${org.name}/${all.number}/deliveries`).set(...admin()).expect(200)).body;
    expect(attempts).toHaveLength(21);
    expect(attempts.every((a: any) => a.status === 'succeeded' && a.attempt === 1 && a.delivery_status === 'delivered')).toBe(true);
    const action = (await t.http().get(`/api/v2/actions/${org.name}/${all.number}`).set(...admin()).expect(200)).body;
    expect(action).toMatchObject({ is_failing: false, last_failure_timestamp: null, last_success_timestamp: expect.any(Number) });
  });

  it('environment triggers (events shaped as the environments module writes them) deliver once each', async () => {
    const env = await createAction('environments', {
      name: 'prod-watch',
      environments: ['prod'],
      triggers: ['ON_STARTED_ARTIFACT', 'ON_EXITED_ARTIFACT', 'ON_SCALED_ARTIFACT', 'ON_NON_COMPLIANT_ENV', 'ON_COMPLIANT_ENV'],
      targets: [{ type: 'WEBHOOK', webhook: receiver.url('/env-hook'), secret: SECRET }],
    });
    const subject = { environment: 'prod', environment_type: 'K8S', logical_environments: [] };
    const web = { artifact_name: 'web', fingerprint: 'a'.repeat(64) };
    const at7 = { snapshot: 7, timestamp: 1_764_000_000, snapshot_url: 'http://localhost/environments/prod/7' };
    const running = { ...at7, ...web, compliant: true, has_provenance: true, flows: [] };
    await append(
      { type: 'snapshot.created', subject, payload: { ...at7, compliant: true, artifact_count: 1, instance_count: 2, started: 1, exited: 0, scaled: 0 } },
      { type: 'artifact.started', subject: { ...subject, ...web }, payload: { ...running, instance_count: 2 } },
      { type: 'artifact.scaled', subject: { ...subject, ...web }, payload: { ...running, instance_count: 3, was: 2, now: 3 } },
      { type: 'artifact.exited', subject: { ...subject, ...web }, payload: { ...at7, ...web, instance_count: 3, compliant: true, has_provenance: true } },
      { type: 'environment.compliance_changed', subject, payload: { ...at7, compliant: false, was: true } },
      { type: 'environment.compliance_changed', subject, payload: { ...at7, snapshot: 8, compliant: true, was: false } },
      { type: 'artifact.started', subject: { ...subject, environment: 'staging', ...web }, payload: running },
    );
    await waitFor(() => at('/env-hook').length >= 5, { timeoutMs: 15_000, what: '5 environment deliveries' });
    await waitFor(() => settled(env.number), { timeoutMs: 15_000, what: 'settled' });
    const hooks = at('/env-hook');
    hooks.forEach(verifySigned);
    expect(hooks.map((r) => r.json.trigger).sort()).toEqual(['ON_COMPLIANT_ENV', 'ON_EXITED_ARTIFACT', 'ON_NON_COMPLIANT_ENV', 'ON_SCALED_ARTIFACT', 'ON_STARTED_ARTIFACT']);
    expect(hooks.find((r) => r.json.trigger === 'ON_SCALED_ARTIFACT')!.json).toMatchObject({
      type: 'artifact.scaled',
      subject: { environment: 'prod', artifact_name: 'web' },
      data: { artifact_name: 'web', was: 2, now: 3 },
    });
  });

  it('a failing receiver makes the action fail, retries with the same delivery id, and the action recovers', async () => {
    let calls = 0;
    receiver.reply = (r) => (r.path === '/flaky' && ++calls <= 2 ? 503 : 200);
    try {
      const flaky = await createAction('flows', {
        name: 'flaky',
        flows: ['app'],
        triggers: ['ON_ATTESTATION'],
        targets: [{ type: 'WEBHOOK', webhook: receiver.url('/flaky') }],
      });
      await beginTrail('t-flaky');
      await attest('t-flaky', 'unit', true);
      const failing = await waitFor(async () => {
        const a = (await t.http().get(`/api/v2/actions/${org.name}/${flaky.number}`).set(...admin()).expect(200)).body;
        return a.is_failing ? a : undefined;
      }, { timeoutMs: 10_000, what: 'is_failing' });
      expect(failing.last_failure_timestamp).toEqual(expect.any(Number));
      expect(failing.last_success_timestamp).toBeNull();

      const recovered = await waitFor(async () => {
        const a = (await t.http().get(`/api/v2/actions/${org.name}/${flaky.number}`).set(...admin()).expect(200)).body;
        return a.last_success_timestamp !== null ? a : undefined;
      }, { timeoutMs: 20_000, what: 'a successful retry' });
      expect(recovered.is_failing).toBe(false);
      expect(recovered.last_success_timestamp).toBeGreaterThanOrEqual(recovered.last_failure_timestamp);

      const attempts = (await t.http().get(`/api/v2/actions/${org.name}/${flaky.number}/deliveries`).set(...admin()).expect(200)).body;
      expect(attempts.map((a: any) => [a.attempt, a.status, a.status_code, a.error])).toEqual([
        [3, 'succeeded', 200, null],
        [2, 'failed', 503, 'HTTP 503'],
        [1, 'failed', 503, 'HTTP 503'],
      ]);
      expect(new Set(attempts.map((a: any) => a.delivery_id)).size).toBe(1);
      expect(attempts[0].delivery_status).toBe('delivered');
      // the receiver saw one delivery three times, always with the same idempotency id
      expect(new Set(at('/flaky').map((r) => r.headers['x-veritrail-delivery']))).toEqual(new Set([attempts[0].delivery_id]));
      expect(at('/flaky')).toHaveLength(3);
    } finally {
      receiver.reply = () => 200;
    }
  });

  it('a receiver that keeps failing: dead-lettered after ACTIONS_DELIVERY_ATTEMPTS attempts', async () => {
    receiver.reply = (r) => (r.path === '/down' ? 500 : 200);
    try {
      const down = await createAction('flows', {
        name: 'down',
        flows: ['app'],
        triggers: ['ON_STARTED_TRAIL'],
        targets: [{ type: 'WEBHOOK', webhook: receiver.url('/down') }],
      });
      await beginTrail('t-down');
      const attempts = await waitFor(async () => {
        const list = (await t.http().get(`/api/v2/actions/${org.name}/${down.number}/deliveries`).set(...admin()).expect(200)).body;
        return list[0]?.delivery_status === 'dead' ? list : undefined;
      }, { timeoutMs: 40_000, what: 'the dead letter' });
      expect(attempts.map((a: any) => a.attempt)).toEqual([4, 3, 2, 1]);
      expect(attempts.every((a: any) => a.status === 'failed' && a.status_code === 500)).toBe(true);
      await waitFor(() => settled(down.number), { timeoutMs: 15_000, what: 'settled' });
      expect(at('/down')).toHaveLength(4);
      expect((await t.http().get(`/api/v2/actions/${org.name}/${down.number}`).set(...admin()).expect(200)).body.is_failing).toBe(true);
    } finally {
      receiver.reply = () => 200;
    }
  });

  it('a receiver that hangs costs its own deliveries their timeout and nothing else', async () => {
    receiver.reply = (r) => (r.path === '/hang' ? 'hang' : 200);
    try {
      const hanging = await createAction('flows', {
        name: 'hanging',
        flows: ['app'],
        triggers: ['ON_ATTESTATION'],
        targets: [{ type: 'WEBHOOK', webhook: receiver.url('/hang') }],
      });
      await createAction('flows', {
        name: 'healthy',
        flows: ['app'],
        triggers: ['ON_ATTESTATION'],
        targets: [{ type: 'WEBHOOK', webhook: receiver.url('/healthy') }],
      });
      await beginTrail('t-hang');
      for (let i = 0; i < 5; i++) await attest('t-hang', `check-${i}`, true);
      await waitFor(() => at('/healthy').length >= 5, { timeoutMs: 10_000, what: 'the healthy receiver' });
      // Not a duration but what a user would see: healthy deliveries went through while hanging ones were still
      // held open. Had the healthy receiver's deliveries waited for each hang to time out, none would have
      // arrived while a hanging request was open.
      expect(at('/healthy').some((r) => r.heldOpen > 0)).toBe(true);
      const timedOut = await waitFor(async () => {
        const list = (await t.http().get(`/api/v2/actions/${org.name}/${hanging.number}/deliveries`).set(...admin()).expect(200)).body;
        return list.length >= 5 ? list : undefined;
      }, { timeoutMs: 10_000, what: 'timed-out attempts' });
      expect(timedOut.slice(0, 5).every((a: any) => a.status === 'failed' && /timed out after 1500 ms/.test(a.error))).toBe(true);
    } finally {
      receiver.reply = () => 200;
    }
  });

  it('an attempt that outlived its lease records nothing over the attempt that took the delivery after it', async () => {
    const action = await createAction('flows', {
      name: 'fenced',
      flows: ['app'],
      triggers: ['ON_ATTESTATION'],
      targets: [{ type: 'WEBHOOK', webhook: receiver.url('/fenced') }],
    });
    const [{ id: actionId }] = await t.dataSource.query(`SELECT id FROM actions WHERE org_id = $1 AND number = $2`, [orgId, action.number]);
    const deliveries = t.app.get(DeliveryRepository, { strict: false });
    const manager = t.dataSource.manager;
    const id = randomUUID();
    // A delivery with no job, so that only this test attempts it.
    await deliveries.insertMany(manager, [{ id, orgId, actionId, targetIndex: 0, trigger: 'ON_ATTESTATION', event: { type: 'test' } as any }]);
    const stalled = await deliveries.lease(manager, id, -1_000); // a lease that has already run out
    const current = await deliveries.lease(manager, id, 60_000);
    expect(stalled && current && stalled.lease_token !== current.lease_token).toBe(true);
    const attempt = (leaseToken: string, succeeded: boolean) =>
      deliveries.recordAttempt(manager, {
        deliveryId: id, leaseToken, orgId, actionId, attempt: 1, succeeded, statusCode: succeeded ? 200 : 500,
        error: succeeded ? null : 'HTTP 500', startedAt: new Date(), durationMs: 1, status: succeeded ? 'delivered' : 'pending',
      });
    expect(await attempt(stalled!.lease_token, false)).toBe(false);
    await deliveries.releaseLease(manager, id, stalled!.lease_token);
    let [row] = await t.dataSource.query(`SELECT status, attempts, lease_until IS NOT NULL AS leased FROM action_deliveries WHERE id = $1`, [id]);
    expect(row).toEqual({ status: 'pending', attempts: 0, leased: true });
    expect(await attempt(current!.lease_token, true)).toBe(true);
    [row] = await t.dataSource.query(`SELECT status, attempts, lease_until IS NOT NULL AS leased FROM action_deliveries WHERE id = $1`, [id]);
    expect(row).toEqual({ status: 'delivered', attempts: 1, leased: false });
    const attempts = (await t.http().get(`/api/v2/actions/${org.name}/${action.number}/deliveries`).set(...admin()).expect(200)).body;
    expect(attempts.map((a: any) => [a.status, a.delivery_status])).toEqual([['succeeded', 'delivered']]);
  });
});
