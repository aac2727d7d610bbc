/**
 * Load suite: mixed traffic against the real service. Run: `npm run build && npx ts-node --transpile-only
 * bench/load/run.ts [--rate N] [--seconds N] [--step-seconds N] [--max-rate N]` (or `npm run bench -- load`).
 *
 * The real service (dist/src/main.js) on an embedded PostgreSQL with durable settings, and autocannon as the load
 * generator, one instance per kind of request, each at its share of the total rate (open loop: requests are sent
 * at the rate whatever the answers' latency, so a slow service shows as latency, not as a lower offered rate):
 *
 *   ingest 50%       POST a generic attestation (multipart, 1 KB data_json) into one of 50 trails
 *   list 20%         GET /attestations/{org}/{flow}, first page of 20
 *   moments 10%      GET a trail's moment by number
 *   reports 10%      PUT a K8S environment report (20 pods over 5 images; one report in five changes an image)
 *   evaluations 10%  POST a one-trail evaluation (a small policy)
 *
 * 1. Fixed rate: RATE requests/s in all for SECONDS (default 100/s for 60 s): throughput, p50/p99 per kind, errors.
 * 2. Highest rate: steps of RATE, 2 x RATE, ... for STEP_SECONDS each, up to MAX_RATE; the highest step at which
 *    every kind's p99 stays under 500 ms with no error and the service keeps up with the offered rate (at least
 *    95% of it answered).
 * Errors are connection errors, timeouts (10 s) and any status other than the expected one.
 */
import * as os from 'node:os';
import { machine, request, startStack, Stack } from '../ingest/harness';
import { BOUNDARY, dataJsonOf, multipart } from '../ingest/requests';

// autocannon ships no type declarations; the two options objects used here are spelled out below
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as (options: Record<string, unknown>, done: (error: Error | null, result: any) => void) => unknown;

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const RATE = arg('rate', 100);
const SECONDS = arg('seconds', 60);
const STEP_SECONDS = arg('step-seconds', 15);
const MAX_RATE = arg('max-rate', 1000);
const P99_LIMIT_MS = 500;
const TRAILS = 50;
const ENVIRONMENTS = 5;
const POLICY = 'package policy\n\nimport rego.v1\n\nallow if input.trail.compliance_status.attestations_statuses["unit-tests"].is_compliant\n';

interface Kind {
  name: string;
  share: number;
  /** statuses that count as answered well */
  expect: number[];
  /** autocannon request options for the i-th request of this kind */
  build(i: number): { method: string; path: string; headers?: Record<string, string>; body?: string | Buffer };
}

interface KindResult {
  name: string;
  offered: number;
  answered: number;
  p50: number;
  p99: number;
  errors: number;
}

function digestOf(text: string): string {
  // a fake but well-formed sha256 (64 hex characters)
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return (h >>> 0).toString(16).padStart(8, '0').repeat(8);
}

function k8sReport(env: number, version: number): string {
  const artifacts = [];
  for (let p = 0; p < 20; p++) {
    const image = p % 5;
    artifacts.push({
      podName: `svc-${image}-${env}-${p.toString(36).padStart(5, 'x')}`,
      namespace: 'prod',
      digests: { [`registry.example.com/svc-${image}:1`]: digestOf(`env${env}-image${image}-v${image === 0 ? version : 0}`) },
      creationTimestamp: 1_700_000_000 + p,
    });
  }
  return JSON.stringify({ artifacts });
}

function kinds(stack: Stack): Kind[] {
  const org = stack.orgName;
  const auth = { Authorization: `Bearer ${stack.apiKey}` };
  const json = { ...auth, 'Content-Type': 'application/json' };
  const form = { ...auth, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` };
  const ingestBody = multipart(dataJsonOf(1024, 'unit-tests'));
  const reports = Array.from({ length: ENVIRONMENTS }, (_, e) => [k8sReport(e, 1), k8sReport(e, 2)]);
  const evaluation = (i: number) =>
    JSON.stringify({ context: { trails: [{ flow: 'load', trail: `t${i % TRAILS}` }] }, policy: { files: { 'p.rego': POLICY } } });
  return [
    { name: 'ingest', share: 0.5, expect: [201], build: (i) => ({ method: 'POST', path: `/api/v2/attestations/${org}/load/trail/t${i % TRAILS}/generic`, headers: form, body: ingestBody }) },
    { name: 'list', share: 0.2, expect: [200], build: () => ({ method: 'GET', path: `/api/v2/attestations/${org}/load?per_page=20&page=1`, headers: auth }) },
    { name: 'moments', share: 0.1, expect: [200], build: (i) => ({ method: 'GET', path: `/api/v2/trails/${org}/load/t${i % TRAILS}/moments/1`, headers: auth }) },
    {
      name: 'reports',
      share: 0.1,
      // 201 when the report made a new snapshot, 200 when nothing changed
      expect: [200, 201],
      // each environment changes image 0 on every fifth of its reports
      build: (i) => {
        const env = i % ENVIRONMENTS;
        const version = Math.floor(i / ENVIRONMENTS / 5) % 2;
        return { method: 'PUT', path: `/api/v2/environments/${org}/prod-${env}/report/K8S`, headers: json, body: reports[env][version] };
      },
    },
    { name: 'evaluations', share: 0.1, expect: [201], build: (i) => ({ method: 'POST', path: '/api/v2/evaluations/' + org, headers: json, body: evaluation(i) }) },
  ];
}

/** One kind at `rate` requests/s for `seconds`: autocannon in open loop (overallRate), latency from its histogram. */
function runKind(stack: Stack, kind: Kind, rate: number, seconds: number): Promise<KindResult> {
  let i = 0;
  // enough connections that the rate is offered even when answers take a while
  const connections = Math.max(4, Math.ceil(rate / 10));
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: stack.baseUrl,
        connections,
        overallRate: rate,
        duration: seconds,
        timeout: 10,
        requests: [
          {
            setupRequest: (req: Record<string, unknown>) => {
              const r = kind.build(i++);
              return { ...req, method: r.method, path: r.path, headers: r.headers ?? {}, body: r.body };
            },
          },
        ],
      },
      (error: Error | null, result: any) => {
        if (error) return reject(error);
        const expected = kind.expect.reduce((n, status) => n + (result.statusCodeStats?.[String(status)]?.count ?? 0), 0);
        const answered = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'];
        resolve({
          name: kind.name,
          offered: rate,
          answered: answered / seconds,
          p50: result.latency.p50,
          p99: result.latency.p99,
          errors: result.errors + result.timeouts + (answered - expected),
        });
      },
    );
  });
}

async function phase(stack: Stack, all: Kind[], rate: number, seconds: number): Promise<KindResult[]> {
  return Promise.all(all.map((k) => runKind(stack, k, Math.max(1, Math.round(rate * k.share)), seconds)));
}

async function setup(stack: Stack): Promise<void> {
  const api = `${stack.baseUrl}/api/v2`;
  const org = stack.orgName;
  const json = { Authorization: `Bearer ${stack.apiKey}`, 'Content-Type': 'application/json' };
  const call = async (method: string, url: string, body: unknown, expect: number[]) => {
    const res = await request(url, { method, headers: json, body: JSON.stringify(body) });
    if (!expect.includes(res.status)) throw new Error(`${method} ${url}: ${res.status} ${res.body}`);
  };
  const features = await request(`${api}/admin/organizations/${org}`, {
    method: 'PATCH',
    headers: { Authorization: `Bearer ${stack.adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ features: ['evaluations', 'trail_moments'] }),
  });
  if (features.status !== 200) throw new Error(`features: ${features.status} ${features.body}`);
  await call('PUT', `${api}/flows/${org}`, { name: 'load' }, [200, 201]);
  const form = { Authorization: `Bearer ${stack.apiKey}`, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` };
  for (let t = 0; t < TRAILS; t++) {
    await call('PUT', `${api}/trails/${org}/load`, { name: `t${t}` }, [200, 201]);
    const res = await request(`${api}/attestations/${org}/load/trail/t${t}/generic`, { method: 'POST', headers: form, body: multipart(dataJsonOf(1024, 'unit-tests')) });
    if (res.status !== 201) throw new Error(`attest: ${res.status} ${res.body}`);
  }
  for (let e = 0; e < ENVIRONMENTS; e++) await call('PUT', `${api}/environments/${org}`, { name: `prod-${e}`, type: 'K8S', description: 'load' }, [200, 201]);
}

const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '-');

function table(title: string, results: KindResult[]): string[] {
  const lines = [title, '', '| kind | offered /s | answered /s | p50 ms | p99 ms | errors |', '| --- | --- | --- | --- | --- | --- |'];
  for (const r of results) lines.push(`| ${r.name} | ${fmt(r.offered)} | ${fmt(r.answered)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${r.errors} |`);
  const offered = results.reduce((s, r) => s + r.offered, 0);
  const answered = results.reduce((s, r) => s + r.answered, 0);
  lines.push(`| all | ${fmt(offered)} | ${fmt(answered)} | | ${fmt(Math.max(...results.map((r) => r.p99)))} | ${results.reduce((s, r) => s + r.errors, 0)} |`);
  return lines;
}

const passes = (results: KindResult[]) =>
  results.every((r) => r.p99 < P99_LIMIT_MS && r.errors === 0 && r.answered >= 0.95 * r.offered);

async function main(): Promise<void> {
  const stack = await startStack({ env: { EVALUATION_WAIT_MS: '5000' } });
  try {
    await setup(stack);
    const all = kinds(stack);
    await phase(stack, all, RATE, 5); // warm-up: JIT, caches, worker threads
    const fixed = await phase(stack, all, RATE, SECONDS);
    const out = [`load suite; ${machine()}; load average before: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`, ''];
    out.push(...table(`1. fixed rate ${RATE}/s for ${SECONDS} s`, fixed), '');
    let best: { rate: number; results: KindResult[] } | null = null;
    const steps: string[] = [];
    for (let rate = RATE; rate <= MAX_RATE; rate += RATE) {
      const results = await phase(stack, all, rate, STEP_SECONDS);
      const ok = passes(results);
      steps.push(`${rate}/s: answered ${fmt(results.reduce((s, r) => s + r.answered, 0))}/s, worst p99 ${fmt(Math.max(...results.map((r) => r.p99)))} ms, errors ${results.reduce((s, r) => s + r.errors, 0)}${ok ? '' : ' (over the limit)'}`);
      console.log(steps[steps.length - 1]);
      if (!ok) break;
      best = { rate, results };
    }
    out.push(`2. highest rate with every p99 under ${P99_LIMIT_MS} ms, no error, and 95% of the offered rate answered (steps of ${RATE}/s, ${STEP_SECONDS} s each):`, '');
    out.push(...steps.map((s) => `- ${s}`), '');
    if (best) out.push(...table(`highest passing step: ${best.rate}/s`, best.results));
    else out.push(`no step passed (the first, ${RATE}/s, was over the limit)`);
    console.log('\n' + out.join('\n'));
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
