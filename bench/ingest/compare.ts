/**
 * Builds of the service, side by side, for a change whose effect is smaller than this machine's drift.
 * Run: `npx ts-node --transpile-only bench/ingest/compare.ts <A>/src/main.js <B>/src/main.js [<C>/src/main.js ...]
 * [--rounds N] [--seconds N] [--clients N] [--attachment-kb N] [--env NAME=VALUE ...]`, where A, B ... are copies of `dist/` (a copy must stay inside the
 * project folder, e.g. `bench/.work/`, so that it finds node_modules). `<main.js>@<node binary>` runs that build
 * on another Node.js (e.g. one installed by scripts/test-on-node.sh); bare express always runs on this one.
 *
 * Each round loads bare express, then every build (in an order that turns each round), for SECONDS each (16
 * clients unless `--clients`, generic attestations with a 1 KB data_json, plus an attachment of N KB with distinct
 * bytes per request when asked). Each build's round is divided by the bare figure of the same round, and each later
 * build's ratio by A's: the median of those paired ratios is the answer, with each build's CPU per request (service
 * process, and all PostgreSQL processes of its own cluster), its median p99 latency, and the attestations per group
 * commit (its /metrics), which the statement's fixed costs are shared among.
 */
import * as os from 'node:os';
import { cpuSeconds, machine, request, startStack, Stack } from './harness';
import { runLoad } from './load';
import { attestationBodies, BOUNDARY, startBare } from './requests';
import { numberOptions } from '../options';

const args = process.argv.slice(2);
const option = numberOptions(args);
const builds = args.filter((a) => /\.js(@.+)?$/.test(a)).map((a) => {
  const at = a.indexOf('.js@');
  return at < 0 ? { main: a, node: undefined } : { main: a.slice(0, at + 3), node: a.slice(at + 4) };
});
const NAMES = 'ABCDEFGH';
const ROUNDS = option('rounds', 10);
const SECONDS = option('seconds', 3);
const ATTACHMENT_KB = option('attachment-kb', 0);
/** Concurrent clients (16 unless told: `--clients N`). */
const CLIENTS = option('clients', 16);
/** Settings for every build, e.g. `--env LOG_LEVEL=info` (an access log line per request; the default is warn). */
const ENV: Record<string, string> = Object.fromEntries(
  args.flatMap((a, i) => (a === '--env' && args[i + 1]?.includes('=') ? [[args[i + 1].split('=')[0], args[i + 1].split('=').slice(1).join('=')]] : [])),
);

function loadAverage(): string {
  return os.loadavg().map((l) => l.toFixed(1)).join(' ');
}

/** The service's group commits so far: how many, and how many attestations they took (its /metrics). */
async function groupCommits(stack: Stack): Promise<{ groups: number; attestations: number }> {
  const text = (await request(`${stack.baseUrl}/metrics`)).body;
  const figure = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { groups: figure('veritrail_ingest_group_size_count'), attestations: figure('veritrail_ingest_group_size_sum') };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function main() {
  if (builds.length < 2 || builds.length > NAMES.length) {
    throw new Error('usage: compare.ts <A main.js> <B main.js> [<C main.js> ...] [--rounds N] [--seconds N] [--attachment-kb N]');
  }
  console.log(`compare: ${ROUNDS} rounds of ${SECONDS}s, ${CLIENTS} clients, attachment ${ATTACHMENT_KB} KB${Object.keys(ENV).length ? `, ${JSON.stringify(ENV)}` : ''}; ${machine()}; load average ${loadAverage()}`);
  const body = attestationBodies(ATTACHMENT_KB);
  const bare = await startBare();
  const stacks: Stack[] = [];
  try {
    for (const build of builds) stacks.push(await startStack({ main: build.main, node: build.node, env: ENV }));
    const load = (stack: Stack, ms: number) =>
      runLoad({
        url: stack.baseUrl,
        method: 'POST',
        headers: { Authorization: `Bearer ${stack.apiKey}`, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
        path: (i) => `/api/v2/attestations/${stack.orgName}/compare-flow/trail/trail-${i % CLIENTS}/generic`,
        body,
        concurrency: CLIENTS,
        durationMs: ms,
        expectStatus: 201,
      });
    const bareLoad = (ms: number) => runLoad({ url: bare.url, method: 'GET', concurrency: CLIENTS, durationMs: ms, expectStatus: 200 });

    await bareLoad(2000);
    for (const stack of stacks) await load(stack, 3000);
    const ratios: number[][] = builds.map(() => []);
    const serviceCpu: number[][] = builds.map(() => []);
    const postgresCpu: number[][] = builds.map(() => []);
    const groupSize: number[][] = builds.map(() => []);
    const p99: number[][] = builds.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      const b = await bareLoad(SECONDS * 1000);
      const line = [`round ${round + 1}: bare ${b.rps.toFixed(0)}`];
      // Each round starts with the next build: what one leaves behind (a checkpoint) hits all alike.
      for (const k of builds.map((_, i) => (i + round) % builds.length)) {
        // The metrics are read outside the CPU window, so their scrape is not counted as the requests' CPU.
        const groups0 = await groupCommits(stacks[k]);
        const cpu0 = cpuSeconds(stacks[k].pid);
        const pg0 = stacks[k].postgresCpuSeconds();
        const r = await load(stacks[k], SECONDS * 1000);
        if (r.errors) throw new Error(`build ${NAMES[k]}: ${r.errors} errors (first: ${r.firstError})`);
        serviceCpu[k].push(((cpuSeconds(stacks[k].pid) - cpu0) * 1000) / r.requests);
        postgresCpu[k].push(((stacks[k].postgresCpuSeconds() - pg0) * 1000) / r.requests);
        const groups1 = await groupCommits(stacks[k]);
        groupSize[k].push((groups1.attestations - groups0.attestations) / (groups1.groups - groups0.groups));
        ratios[k].push(r.rps / b.rps);
        p99[k].push(r.p99);
        line.push(`${NAMES[k]} ${r.rps.toFixed(0)} (${(r.rps / b.rps).toFixed(3)}; groups of ${groupSize[k][round].toFixed(1)})`);
      }
      console.log(line.join('  '));
    }
    for (let k = 0; k < builds.length; k++) {
      console.log(
        `${NAMES[k]} ${builds[k].main}${builds[k].node ? ` on ${builds[k].node}` : ''}: ratio to bare, median ${median(ratios[k]).toFixed(3)}; CPU per request: service ${median(serviceCpu[k]).toFixed(3)} ms, PostgreSQL ${median(postgresCpu[k]).toFixed(3)} ms; attestations per group commit ${median(groupSize[k]).toFixed(1)}; p99 ${median(p99[k]).toFixed(1)} ms`,
      );
    }
    for (let k = 1; k < builds.length; k++) {
      const paired = ratios[k].map((r, i) => r / ratios[0][i]);
      const cpu = serviceCpu[k].map((c, i) => c / serviceCpu[0][i]);
      console.log(`${NAMES[k]} / A, median of paired rounds: ${median(paired).toFixed(3)} (service CPU per request ${median(cpu).toFixed(3)} x A's)`);
    }
    console.log(`load average at the end ${loadAverage()}`);
  } finally {
    bare.child.kill('SIGTERM');
    for (const stack of stacks) await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
