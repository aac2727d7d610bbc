/**
 * Ingest benchmark (issue 3 "Performance"). Run: `npm run build && npx ts-node --transpile-only bench/ingest/run.ts
 * [--seconds N] [--rounds N] [--clients N] [--flows N] [--small-only] [--md] [--node <node binary>]` (`--node`: the service
 * on another Node.js, e.g. one installed by scripts/test-on-node.sh; bare express runs on this one).
 *
 * In one run, with the same load generator (bench/ingest/load.ts: N keep-alive clients, closed loop, loopback):
 *   1. a bare express route answering constant JSON (child process), the reference figure, and
 *   2. the real service (dist/src/main.js, child process, embedded PostgreSQL with durable settings) taking
 *      generic attestations with a 1 KB data_json and no attachment,
 *      both running, loaded in turn: ROUNDS rounds of SECONDS on each side, after a warm-up of each; the
 *      figure is the median of the per-round ratios (the machine is shared: alternating makes its other load
 *      hit both sides alike);
 *   3. then the service with a 100 KB attachment (distinct content per request: every request stores a new blob).
 * Targets (issue 28's, which raised issue 3's 1/4 and 500 req/s): (2) at least 0.30 of (1), with at most 0.24 ms of
 * the service's CPU and 0.12 ms of PostgreSQL's (all its processes) per request; (3) at least 600 req/s; zero errors.
 * Each is printed MET or NOT MET; CPU is read from /proc in nanoseconds (harness.ts `cpuSeconds`).
 */
import * as os from 'node:os';
import { cpuSeconds, machine, startStack } from './harness';
import { attestationBodies, BOUNDARY, dataJsonOf, multipart, startBare } from './requests';
import { LoadResult, runLoad } from './load';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
/** Seconds per side per round; the bare and service phases alternate for ROUNDS rounds. */
const SECONDS = arg('seconds', 5);
const ROUNDS = arg('rounds', 5);
const CLIENTS = arg('clients', 16);
/** Flows the clients spread over (each client has its own trail). 1 = everyone in one flow. */
const FLOWS = arg('flows', 1);
const MD = args.includes('--md');
/** The service's Node.js binary (another runtime than this one's), when given. */
const NODE = args.includes('--node') ? args[args.indexOf('--node') + 1] : undefined;
/** --small-only: skip the attachment phase (for profiling the 1 KB path alone). */
const SMALL_ONLY = args.includes('--small-only');

function line(label: string, r: LoadResult): string {
  return `${label.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms  ${r.requests} requests, ${r.errors} errors${r.firstError ? ` (first: ${r.firstError})` : ''}`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function main() {
  console.log(`ingest benchmark: ${CLIENTS} clients, ${ROUNDS} rounds of ${SECONDS}s per side, ${FLOWS} flow(s); ${machine()}${NODE ? `; service on ${NODE}` : ''}`);
  const bare = await startBare();
  const stack = await startStack({
    asyncCommit: args.includes('--async-commit'),
    node: NODE,
    // --cpu-prof DIR: write a V8 CPU profile of the service (for finding hot spots, not for figures).
    nodeArgs: args.includes('--cpu-prof') ? ['--cpu-prof', `--cpu-prof-dir=${args[args.indexOf('--cpu-prof') + 1]}`] : [],
  });
  try {
    const headers = { Authorization: `Bearer ${stack.apiKey}`, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` };
    const pathFor = (kind: string) => (i: number) => {
      const client = i % CLIENTS;
      return `/api/v2/attestations/${stack.orgName}/${kind}-flow-${client % FLOWS}/trail/trail-${client}/generic`;
    };
    const small = multipart(dataJsonOf(1024, 'unit-test'));
    if (Buffer.byteLength(dataJsonOf(1024, 'unit-test')) !== 1024) throw new Error('data_json is not 1 KB');
    const bareLoad = (ms: number, warmupMs = 0) =>
      runLoad({ url: bare.url, method: 'GET', concurrency: CLIENTS, durationMs: ms, warmupMs, expectStatus: 200 });
    const smallLoad = (ms: number, warmupMs = 0) =>
      runLoad({ url: stack.baseUrl, method: 'POST', headers, path: pathFor('plain'), body: small, concurrency: CLIENTS, durationMs: ms, warmupMs, expectStatus: 201 });

    // Warm both (JIT, connections, trails created), then alternate: the machine's other load hits both sides.
    await bareLoad(3000);
    await smallLoad(3000);
    const bareRounds: LoadResult[] = [];
    const smallRounds: LoadResult[] = [];
    let cpuMs = 0;
    let postgresMs = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const b = await bareLoad(SECONDS * 1000);
      const cpu0 = cpuSeconds(stack.pid);
      const pg0 = stack.postgresCpuSeconds();
      const g = await smallLoad(SECONDS * 1000);
      cpuMs += (cpuSeconds(stack.pid) - cpu0) * 1000;
      postgresMs += (stack.postgresCpuSeconds() - pg0) * 1000;
      bareRounds.push(b);
      smallRounds.push(g);
      console.log(`round ${round + 1}: bare ${b.rps.toFixed(0)} req/s, generic 1 KB ${g.rps.toFixed(0)} req/s (p50 ${g.p50.toFixed(1)} / p99 ${g.p99.toFixed(1)} ms, ${g.errors} errors): ratio ${(g.rps / b.rps).toFixed(3)}`);
    }
    const ratios = smallRounds.map((g, i) => g.rps / bareRounds[i].rps);
    const smallRequests = smallRounds.reduce((n, r) => n + r.requests, 0);
    const smallErrors = smallRounds.reduce((n, r) => n + r.errors, 0);
    const firstError = smallRounds.find((r) => r.firstError)?.firstError;
    const ratio = median(ratios);
    console.log(`bare express (constant JSON): median ${median(bareRounds.map((r) => r.rps)).toFixed(0)} req/s`);
    console.log(`generic, 1 KB data_json:      median ${median(smallRounds.map((r) => r.rps)).toFixed(0)} req/s, ${smallRequests} requests, ${smallErrors} errors${firstError ? ` (first: ${firstError})` : ''}`);
    const met = (ok: boolean) => (ok ? 'MET' : 'NOT MET');
    const serviceMs = cpuMs / smallRequests;
    const postgresPerRequest = postgresMs / smallRequests;
    console.log(`service CPU per 1 KB request: ${serviceMs.toFixed(3)} ms (target <= 0.24) ${met(serviceMs <= 0.24)}`);
    console.log(`PostgreSQL CPU per 1 KB request: ${postgresPerRequest.toFixed(3)} ms (target <= 0.12) ${met(postgresPerRequest <= 0.12)}`);
    const ok1 = ratio >= 0.3 && smallErrors === 0;
    console.log(`ratio generic / bare: median ${ratio.toFixed(3)} (rounds: ${ratios.map((r) => r.toFixed(3)).join(', ')}) (target >= 0.30) ${met(ok1)}`);
    console.log(`load average now ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    if (SMALL_ONLY) return;

    const largeBody = attestationBodies(100);
    const cpu0 = cpuSeconds(stack.pid);
    const withAttachment = await runLoad({
      url: stack.baseUrl,
      method: 'POST',
      headers,
      path: pathFor('files'),
      // distinct content per request: every request hashes and stores a new 100 KB blob
      body: largeBody,
      concurrency: CLIENTS,
      durationMs: SECONDS * ROUNDS * 1000,
      warmupMs: 3000,
      expectStatus: 201,
    });
    const cpuLarge = ((cpuSeconds(stack.pid) - cpu0) * 1000) / withAttachment.requests;
    console.log(line('generic, 1 KB + 100 KB attachment', withAttachment));
    console.log(`service CPU per 100 KB request (incl. warm-up): ${cpuLarge.toFixed(2)} ms; load average now ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    const ok2 = withAttachment.rps >= 600 && withAttachment.errors === 0;
    console.log(`100 KB attachment: ${withAttachment.rps.toFixed(0)} req/s (target >= 600) ${met(ok2)}`);
    if (MD) {
      console.log(`\n| bare express (median) | generic 1 KB (median) | ratio (median; rounds) | service / PostgreSQL CPU per 1 KB request | generic + 100 KB (p50 / p99) | errors |\n|---|---|---|---|---|---|`);
      console.log(
        `| ${median(bareRounds.map((r) => r.rps)).toFixed(0)} req/s | ${median(smallRounds.map((r) => r.rps)).toFixed(0)} req/s | ${ratio.toFixed(3)}; ${ratios.map((r) => r.toFixed(2)).join(' ')} | ${serviceMs.toFixed(3)} / ${postgresPerRequest.toFixed(3)} ms | ${withAttachment.rps.toFixed(0)} req/s (${withAttachment.p50.toFixed(1)} / ${withAttachment.p99.toFixed(1)} ms) | ${smallErrors + withAttachment.errors} |`,
      );
    }
  } finally {
    bare.child.kill('SIGTERM');
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
