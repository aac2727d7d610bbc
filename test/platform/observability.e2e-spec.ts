import { JsonLogger } from '../../src/common/logging/json-logger';
import { HttpReceiver, startHttpReceiver } from '../support/receivers';
import { waitFor } from '../support/wait';
import { postGeneric } from '../support/attestation-helpers';
import { ALLOW_IF_UNIT_PASSES, evaluate, evaluationWorld } from '../support/evaluation-helpers';
import { bearer, createOrg, TestOrg } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

/** The value of one series in a Prometheus text exposition (undefined when the series is absent). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/**
 * What an operator reads off a running service: the series at /metrics after real requests, evaluations,
 * deliveries and attestations, and log lines that all carry the id of the request that caused them.
 */
describe('observability', () => {
  let t: TestApp;
  let receiver: HttpReceiver;
  let org: TestOrg;
  const lines: Array<Record<string, any>> = [];
  const scrape = async () => {
    const res = await t.http().get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    return res.text;
  };

  beforeAll(async () => {
    receiver = await startHttpReceiver();
    receiver.reply = (r) => (r.path === '/broken' ? 500 : 200);
    const logger = new JsonLogger('debug', 'json', (line) => lines.push(JSON.parse(line)));
    t = await startTestApp(
      { ACTIONS_ALLOW_PRIVATE_TARGETS: 'true', ACTIONS_DELIVERY_ATTEMPTS: '3', ACTIONS_RETRY_DELAY_SECONDS: '3600', EVALUATION_WAIT_MS: '60000' },
      { logger },
    );
    org = await evaluationWorld(t);
  });
  afterAll(async () => {
    await t?.dataSource
      .query(`UPDATE action_deliveries SET status = 'dead' WHERE status = 'pending' AND org_id = (SELECT id FROM organizations WHERE name = $1)`, [org?.name])
      .catch(() => undefined);
    await t?.close();
    await receiver?.close();
  });

  it('counts requests per route template and status, never per name in the path', async () => {
    const key = bearer(org.adminKey);
    for (const flow of ['alpha', 'beta', 'gamma']) await t.http().put(`/api/v2/flows/${org.name}`).set(...key).send({ name: flow }).expect(201);
    await t.http().get(`/api/v2/flows/${org.name}/alpha`).set(...key).expect(200);
    await t.http().get(`/api/v2/flows/${org.name}/beta`).set(...key).expect(200);
    await t.http().get(`/api/v2/flows/${org.name}/no-such-flow`).set(...key).expect(404);
    await t.http().get(`/api/v2/no/such/route`).expect(404);

    const text = await scrape();
    expect(sample(text, 'veritrail_http_requests_total{method="GET",route="/api/v2/flows/:org/:flow",status="200"}')).toBe(2);
    expect(sample(text, 'veritrail_http_requests_total{method="GET",route="/api/v2/flows/:org/:flow",status="404"}')).toBe(1);
    expect(sample(text, 'veritrail_http_request_duration_seconds_count{method="GET",route="/api/v2/flows/:org/:flow",status="200"}')).toBe(2);
    expect(sample(text, 'veritrail_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/v2/flows/:org/:flow",status="200"}')).toBe(2);
    expect(sample(text, 'veritrail_http_requests_total{method="PUT",route="/api/v2/flows/:org",status="201"}')).toBeGreaterThanOrEqual(3);
    expect(sample(text, 'veritrail_http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(1);
    // No org, flow or unknown path ever becomes a label value.
    for (const name of [org.name, 'alpha', 'no-such-flow', '/api/v2/no/such/route']) expect(text).not.toContain(name);
  });

  it('shows the database pool and the ingest groups attestations were written in', async () => {
    const before = sample(await scrape(), 'veritrail_ingest_group_size_count') ?? 0;
    await Promise.all(
      ['a', 'b', 'c', 'd'].map((name) => postGeneric(t, org.adminKey, org.name, 'app', 't1', { attestation_name: name, is_compliant: true }).expect(201)),
    );
    const text = await scrape();
    const groups = sample(text, 'veritrail_ingest_group_size_count')!;
    // Four attestations went in one to four groups; the sizes of the groups add up to four.
    expect(groups - before).toBeGreaterThanOrEqual(1);
    expect(groups - before).toBeLessThanOrEqual(4);
    expect(sample(text, 'veritrail_ingest_group_size_bucket{le="64"}')).toBe(groups);
    expect(sample(text, 'veritrail_db_pool_max_connections')).toBe(t.config.database.poolSize);
    expect(sample(text, 'veritrail_db_pool_connections')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'veritrail_db_pool_idle_connections')).toBeLessThanOrEqual(sample(text, 'veritrail_db_pool_connections')!);
    expect(sample(text, 'veritrail_db_pool_waiting_requests')).toBe(0);
  });

  it('times evaluations by outcome and shows the queue, and logs a request id on every line the request causes', async () => {
    const ok = await evaluate(t, org, { context: { trails: [{ flow: 'app', trail: 't1' }] }, policy: { files: { 'p.rego': ALLOW_IF_UNIT_PASSES } } })
      .set('X-Request-Id', 'req-eval-ok')
      .expect(201);
    expect(ok.body.status).toBe('completed');
    const broken = await evaluate(t, org, {
      context: { trails: [{ flow: 'app', trail: 't1' }] },
      policy: { files: { 'p.rego': 'package policy\n\nallow := 1 if true\n\nallow := 2 if true\n' } },
    }).expect(201);
    expect(broken.body.status).toBe('failed');

    const text = await scrape();
    expect(sample(text, 'veritrail_evaluation_duration_seconds_count{outcome="completed"}')).toBe(1);
    expect(sample(text, `veritrail_evaluation_duration_seconds_count{outcome="${broken.body.error.kind}"}`)).toBe(1);
    expect(sample(text, 'veritrail_evaluation_queue_depth')).toBe(0);
    expect(sample(text, 'veritrail_evaluations_running')).toBe(0);

    // The handler's own line (written deep in the evaluation runner) and the access line both carry the id.
    const mine = lines.filter((l) => l.request_id === 'req-eval-ok');
    expect(mine.map((l) => l.msg)).toEqual(expect.arrayContaining(['evaluation run timings', 'request']));
    const timings = lines.filter((l) => l.msg === 'evaluation run timings');
    expect(timings).toHaveLength(2);
    expect(timings.every((l) => typeof l.request_id === 'string')).toBe(true);
    // Lines written outside any request (start-up) carry none.
    expect(lines.find((l) => l.msg === 'request' && l.request_id === undefined)).toBeUndefined();
  });

  it('counts notification deliveries and failures by target type', async () => {
    const other = await createOrg(t);
    const key = bearer(other.adminKey);
    await t.http().put(`/api/v2/flows/${other.name}`).set(...key).send({ name: 'app' }).expect(201);
    await t
      .http()
      .put(`/api/v2/actions/${other.name}/flows`)
      .set(...key)
      .send({
        name: 'hooks',
        flows: ['app'],
        triggers: ['ON_STARTED_TRAIL'],
        targets: [
          { type: 'WEBHOOK', webhook: receiver.url('/fine') },
          { type: 'SLACK', webhook: receiver.url('/broken') },
        ],
      })
      .expect(201);
    const before = await scrape();
    const count = (text: string, target: string, outcome: string) =>
      sample(text, `veritrail_notification_deliveries_total{target="${target}",outcome="${outcome}"}`) ?? 0;

    await t.http().put(`/api/v2/trails/${other.name}/app`).set(...key).field('data_json', JSON.stringify({ name: 't1' })).expect(201);
    const after = await waitFor(async () => {
      const text = await scrape();
      return count(text, 'WEBHOOK', 'delivered') > count(before, 'WEBHOOK', 'delivered') && count(text, 'SLACK', 'failed') > count(before, 'SLACK', 'failed')
        ? text
        : undefined;
    }, { timeoutMs: 15_000, what: 'a delivered webhook and a failed Slack attempt' });
    expect(count(after, 'WEBHOOK', 'delivered') - count(before, 'WEBHOOK', 'delivered')).toBe(1);
    expect(count(after, 'SLACK', 'failed') - count(before, 'SLACK', 'failed')).toBe(1);
    expect(count(after, 'WEBHOOK', 'failed')).toBe(count(before, 'WEBHOOK', 'failed'));
    expect(receiver.received.filter((r) => r.path === '/fine')).toHaveLength(1);
  });
});

describe('observability: METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ METRICS_TOKEN: 'metrics-token-0123456789' });
  });
  afterAll(async () => t?.close());

  it('keeps /metrics to holders of the token when one is set', async () => {
    const refused = await t.http().get('/metrics').expect(401);
    expect(refused.body).toEqual({ message: 'Metrics need Authorization: Bearer <METRICS_TOKEN>', errors: null });
    expect(refused.headers['www-authenticate']).toBe('Bearer realm="veritrail"');
    await t.http().get('/metrics').set('Authorization', 'Bearer metrics-token-wrong-value').expect(401);
    const res = await t.http().get('/metrics').set('Authorization', 'Bearer metrics-token-0123456789').expect(200);
    expect(res.text).toContain('veritrail_http_requests_total');
    // The probes stay open.
    await t.http().get('/health').expect(200);
  });
});
