/**
 * Notification delivery lag: from an attestation's commit to a local HTTP receiver, at a steady rate.
 * Run: `npm run build && npx ts-node --transpile-only bench/notifications/run.ts [--rate N] [--seconds N] [--hang] [--md]`
 *
 * Starts the real service (dist/src/main.js, ROLE all, ACTIONS_ALLOW_PRIVATE_TARGETS for the local receiver)
 * on its own embedded PostgreSQL, a receiver on 127.0.0.1, and a flow action (ON_ATTESTATION, one WEBHOOK
 * target). Then posts generic attestations at `rate` per second for `seconds` (open loop: a request does not
 * wait for the previous one), spread over 8 trails. The lag of a delivery is its arrival at the receiver minus
 * the event's `occurred_at` (the time the event row was written, inside the attestation's transaction, so the
 * figure includes the commit). With `--hang`, a second action's receiver never answers: its deliveries cost
 * their timeout (2 s here), and the first receiver's lag must not move.
 * Targets (issue 12): p99 <= 1 s at 50 events per second for a minute; a hanging receiver costs its own
 * deliveries their timeout and nothing else.
 */
import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { machine, percentile, request, startStack } from '../ingest/harness';
import { BOUNDARY, multipart } from '../ingest/requests';
import { numberOptions } from '../options';

const args = process.argv.slice(2);
const option = numberOptions(args);
const RATE = option('rate', 50);
const SECONDS = option('seconds', 60);
const HANG = args.includes('--hang');
const MD = args.includes('--md');
const TRAILS = 8;

async function main() {
  const arrivals = new Map<string, number>();
  let hungRequests = 0;
  const hung: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = Date.now();
      if (req.url === '/hang') {
        hungRequests++;
        hung.push(res);
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const name: string = body.data.attestation_name;
      if (name.startsWith('m-') && !arrivals.has(name)) arrivals.set(name, now - body.occurred_at * 1000);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiver = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  console.log(`notifications: ${RATE}/s for ${SECONDS}s${HANG ? ', with a hanging receiver' : ''}; ${machine()}`);
  const stack = await startStack({ env: { ACTIONS_ALLOW_PRIVATE_TARGETS: 'true', ACTIONS_DELIVERY_TIMEOUT_MS: '2000' } });
  try {
    const auth = { Authorization: `Bearer ${stack.apiKey}` };
    const json = { ...auth, 'Content-Type': 'application/json' };
    const put = async (path: string, body: object) => {
      const res = await request(`${stack.baseUrl}${path}`, { method: 'PUT', headers: json, body: JSON.stringify(body) });
      if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.body}`);
    };
    await put(`/api/v2/flows/${stack.orgName}`, { name: 'bench' });
    await put(`/api/v2/actions/${stack.orgName}/flows`, {
      name: 'lag',
      flows: ['bench'],
      triggers: ['ON_ATTESTATION'],
      targets: [{ type: 'WEBHOOK', webhook: `${receiver}/ok`, secret: 'bench-secret' }],
    });
    if (HANG) {
      await put(`/api/v2/actions/${stack.orgName}/flows`, {
        name: 'hang',
        flows: ['bench'],
        triggers: ['ON_ATTESTATION'],
        targets: [{ type: 'WEBHOOK', webhook: `${receiver}/hang` }],
      });
    }
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    const post = (trail: number, name: string) =>
      request(`${stack.baseUrl}/api/v2/attestations/${stack.orgName}/bench/trail/trail-${trail}/generic`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
        body: multipart(JSON.stringify({ attestation_name: name, is_compliant: true, description: randomBytes(8).toString('hex') })),
        agent,
      });
    // Trails first, so that every measured attestation takes the common path.
    for (let i = 0; i < TRAILS; i++) await post(i, 'setup');

    const total = RATE * SECONDS;
    const started = Date.now();
    const inFlight: Promise<unknown>[] = [];
    let errors = 0;
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / RATE;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      inFlight.push(post(i % TRAILS, `m-${i}`).then((res) => res.status !== 201 && errors++));
    }
    await Promise.all(inFlight);
    const sentFor = (Date.now() - started) / 1000;
    const deadline = Date.now() + 30_000;
    while (arrivals.size < total && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));

    const lags = [...arrivals.values()].sort((a, b) => a - b);
    const row = {
      events: total,
      delivered: arrivals.size,
      errors,
      rate: total / sentFor,
      p50: percentile(lags, 50),
      p90: percentile(lags, 90),
      p99: percentile(lags, 99),
      max: lags.at(-1) ?? NaN,
    };
    console.log(
      `sent ${total} attestations in ${sentFor.toFixed(1)} s (${row.rate.toFixed(1)}/s, ${errors} errors); delivered ${arrivals.size}; ` +
        `lag p50 ${row.p50} ms, p90 ${row.p90} ms, p99 ${row.p99} ms, max ${row.max} ms` +
        (HANG ? `; hanging receiver got ${hungRequests} requests` : ''),
    );
    if (MD) {
      console.log('| rate | events | delivered | lag p50 | p90 | p99 | max | hanging receiver |');
      console.log('|---|---|---|---|---|---|---|---|');
      console.log(
        `| ${row.rate.toFixed(1)}/s | ${total} | ${arrivals.size} | ${row.p50} ms | ${row.p90} ms | ${row.p99} ms | ${row.max} ms | ${HANG ? `${hungRequests} requests held` : '-'} |`,
      );
    }
    agent.destroy();
  } finally {
    for (const res of hung) res.destroy();
    server.closeAllConnections();
    server.close();
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
