/**
 * Two builds of the service, side by side, for a change whose effect is smaller than this machine's drift.
 * Run: `npx ts-node --transpile-only bench/ingest/compare.ts <A>/src/main.js <B>/src/main.js [--rounds N]
 * [--seconds N] [--attachment-kb N]`, where A and B are copies of `dist/` (a copy must stay inside the
 * project folder, e.g. `bench/.work/`, so that it finds node_modules).
 *
 * Each round loads bare express, then A and B (in turn first), for SECONDS each (16 clients, generic attestations with a
 * 1 KB data_json, plus an attachment of N KB with distinct bytes per request when asked). Each build's round
 * is divided by the bare figure of the same round, and B's ratio by A's: the median of those paired ratios is
 * the answer, with each side's CPU per request (service process, and all PostgreSQL processes).
 */
import { randomBytes } from 'node:crypto';
import { cpuSeconds, machine, startStack, Stack } from './harness';
import { runLoad } from './load';
import { BOUNDARY, dataJsonOf, multipart, startBare } from './requests';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const builds = args.filter((a) => a.endsWith('.js'));
const ROUNDS = option('rounds', 10);
const SECONDS = option('seconds', 3);
const ATTACHMENT_KB = option('attachment-kb', 0);
const CLIENTS = 16;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function main() {
  if (builds.length !== 2) throw new Error('usage: compare.ts <A main.js> <B main.js> [--rounds N] [--seconds N] [--attachment-kb N]');
  console.log(`compare: ${ROUNDS} rounds of ${SECONDS}s, ${CLIENTS} clients, attachment ${ATTACHMENT_KB} KB; ${machine()}`);
  const dataJson = dataJsonOf(1024, 'unit-test');
  const payload = randomBytes(Math.max(ATTACHMENT_KB * 1024, 16));
  const body = (i: number) => {
    if (!ATTACHMENT_KB) return multipart(dataJson);
    payload.writeUInt32BE(i, 0);
    payload.writeUInt32BE(process.pid, 4);
    payload.writeDoubleBE(Date.now(), 8);
    return multipart(dataJson, payload);
  };
  const bare = await startBare();
  const stacks: Stack[] = [];
  try {
    for (const build of builds) stacks.push(await startStack({ main: build }));
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
    const ratios: number[][] = [[], []];
    const serviceCpu: number[][] = [[], []];
    const postgresCpu: number[][] = [[], []];
    for (let round = 0; round < ROUNDS; round++) {
      const b = await bareLoad(SECONDS * 1000);
      const line = [`round ${round + 1}: bare ${b.rps.toFixed(0)}`];
      // A then B in odd rounds, B then A in even ones: what one leaves behind (a checkpoint) hits both alike.
      for (const k of round % 2 ? [1, 0] : [0, 1]) {
        const cpu0 = cpuSeconds(stacks[k].pid);
        const pg0 = stacks[k].postgresCpuSeconds();
        const r = await load(stacks[k], SECONDS * 1000);
        if (r.errors) throw new Error(`build ${'AB'[k]}: ${r.errors} errors (first: ${r.firstError})`);
        serviceCpu[k].push(((cpuSeconds(stacks[k].pid) - cpu0) * 1000) / r.requests);
        postgresCpu[k].push(((stacks[k].postgresCpuSeconds() - pg0) * 1000) / r.requests);
        ratios[k].push(r.rps / b.rps);
        line.push(`${'AB'[k]} ${r.rps.toFixed(0)} (${(r.rps / b.rps).toFixed(3)})`);
      }
      console.log(line.join('  '));
    }
    for (let k = 0; k < 2; k++) {
      console.log(
        `${'AB'[k]} ${builds[k]}: ratio to bare, median ${median(ratios[k]).toFixed(3)}; CPU per request: service ${median(serviceCpu[k]).toFixed(3)} ms, PostgreSQL ${median(postgresCpu[k]).toFixed(3)} ms`,
      );
    }
    console.log(`B / A, median of paired rounds: ${median(ratios[1].map((r, i) => r / ratios[0][i])).toFixed(3)}`);
  } finally {
    bare.child.kill('SIGTERM');
    for (const stack of stacks) await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
