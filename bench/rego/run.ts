/**
 * Rego engine benchmark (issue 4). Run: `npx ts-node --transpile-only bench/rego/run.ts [--runs N] [--md]`.
 *
 * 1. Evaluation of the compliance policy (bench/rego/policy) over 100 trails x 20 attestations vs JSON.parse of
 *    the same input serialized, measured in the same run (target: ratio <= 1). Two inputs: the full GET-trail
 *    shape (events, template...) and a lean one with only the fields the policy reads.
 * 2. Compile time of a 100-file bundle (target < 200 ms).
 * 3. Repeated bundle through the sandbox's per-worker digest cache (target ~0 compile).
 * 4. The real-world-shaped admission policy of realworld.ts over its generated megabyte input (sprintf, regex,
 *    units, joins, json.match_schema), against JSON.parse of that input.
 * 5. Whether @open-policy-agent/opa-wasm could serve as a comparison here (bench/rego/wasm.ts runs one).
 * With --md it also prints a markdown section for bench/RESULTS.md; with --rules, the median time of each rule
 * of the policy evaluated on its own (to see where evaluation time goes).
 */
import * as os from 'os';
import { compile } from '../../libs/rego/src';
import { RegoSandbox, bundleDigest } from '../../libs/rego/src/sandbox';
import { NOW_S, generateInput } from './generate-input';
import { hundredFileBundle, policyFiles } from './generate-bundle';
import { REALWORLD_DATA, realworldFiles, realworldInput } from './realworld';
import { median, nowMs } from './timing';

/** Runs fn `warm` times untimed, then `runs` times timed; returns the per-run times. */
function timeIt(fn: () => unknown, runs: number, warm = 3): number[] {
  for (let i = 0; i < warm; i++) fn();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = nowMs();
    fn();
    out.push(nowMs() - t);
  }
  return out;
}

/** Times a and b alternately, so a load spike on the (shared) machine hits both measurements alike. */
function timePair(a: () => unknown, b: () => unknown, runs: number, warm = 3): [number[], number[]] {
  for (let i = 0; i < warm; i++) {
    a();
    b();
  }
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < runs; i++) {
    let t = nowMs();
    a();
    ta.push(nowMs() - t);
    t = nowMs();
    b();
    tb.push(nowMs() - t);
  }
  return [ta, tb];
}

const f = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2)) + ' ms';

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
}

async function main(): Promise<void> {
  const runs = arg('--runs', 30);
  const trails = arg('--trails', 100);
  const md = process.argv.includes('--md');
  const lines: string[] = [];
  const rows: Array<[string, string, string]> = [];
  const say = (s: string) => {
    lines.push(s);
    console.log(s);
  };
  say(`node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown cpu'}), ${runs} runs per figure (median), load average ${os.loadavg()[0].toFixed(1)} at start`);

  // 1. evaluation vs JSON.parse
  const files = policyFiles();
  const t0 = nowMs();
  const bundle = compile(files);
  say(`compile policy (${Object.keys(files).length} files): ${f(nowMs() - t0)} (cold)`);
  const data = { params: {} };
  const nowNs = BigInt(NOW_S) * 1_000_000_000n;
  for (const full of [true, false]) {
    const label = full ? 'full GET-trail input' : 'lean input (compliance fields only)';
    const input = generateInput({ trails, full });
    const text = JSON.stringify(input);
    const parsed = JSON.parse(text);
    let summary: unknown;
    const [parse, evalTimes] = timePair(
      () => JSON.parse(text),
      () => {
        summary = bundle.evalValue('data.policy', { input: parsed, data, nowNs }).value;
      },
      runs,
    );
    const ratio = median(evalTimes) / median(parse);
    const s = (summary as { summary?: unknown })?.summary;
    say(`${label}: ${trails} trails x 20 attestations, ${(text.length / 1024).toFixed(0)} KiB JSON`);
    say(`  JSON.parse: median ${f(median(parse))}; evaluate data.policy: median ${f(median(evalTimes))}, min ${f(Math.min(...evalTimes))}; ratio eval/parse ${ratio.toFixed(2)} (target <= 1; measured alternately)`);
    say(`  summary: ${JSON.stringify(s, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}`);
    if (!full && process.argv.includes('--rules')) {
      const names = ['data.lib.slots.entries', ...Object.keys(summary as object).sort().map((k) => `data.policy.${k}`)];
      for (const ref of names) {
        const ts = timeIt(() => bundle.evalValue(ref, { input: parsed, data, nowNs }), Math.min(runs, 10), 1);
        say(`    ${ref}: median ${f(median(ts))}`);
      }
    }
    rows.push([`Evaluate data.policy, ${label} (${(text.length / 1024).toFixed(0)} KiB)`, `${f(median(evalTimes))} vs JSON.parse ${f(median(parse))}: ratio ${ratio.toFixed(2)}`, 'ratio <= 1']);
  }

  // 2. 100-file bundle compile
  const big = hundredFileBundle();
  const c0 = nowMs();
  compile(big);
  const cold = nowMs() - c0;
  // Each timed compile gets a distinct comment so no cache anywhere can answer it.
  let n = 0;
  const compileTimes = timeIt(() => compile({ ...big, 'rules/r0.rego': big['rules/r0.rego'] + `\n# run ${n++}\n` }), Math.min(runs, 15), 2);
  say(`compile 100-file bundle: cold ${f(cold)}, warm median ${f(median(compileTimes))}, min ${f(Math.min(...compileTimes))} (target < 200 ms)`);
  rows.push(['Compile a 100-file bundle', `cold ${f(cold)}, warm median ${f(median(compileTimes))}`, '< 200 ms']);

  // 3. repeated bundle via the sandbox's digest cache
  const digestTimes = timeIt(() => bundleDigest(big), runs);
  const sandbox = new RegoSandbox({ minThreads: 1, maxThreads: 1, defaultDeadlineMs: 60_000 });
  try {
    const lean = generateInput({ trails, full: false });
    const warmup = await sandbox.evaluate({ files: { 'w.rego': 'package w\nimport rego.v1\nx := 1\n' }, query: 'data.w.x' });
    if (!warmup.ok) throw new Error(`sandbox warm-up failed: ${JSON.stringify(warmup.error)}`);
    const req = { files: big, query: 'data.policy.summary', input: lean, data, nowNs };
    const w1 = nowMs();
    const first = await sandbox.evaluate(req);
    const firstWall = nowMs() - w1;
    const repeats: number[] = [];
    let last = first;
    for (let i = 0; i < Math.min(runs, 10); i++) {
      const w = nowMs();
      last = await sandbox.evaluate(req);
      repeats.push(nowMs() - w);
    }
    if (!first.ok || !last.ok) throw new Error(`sandbox evaluation failed: ${JSON.stringify(first.ok ? last : first)}`);
    say(`sandbox, 100-file bundle: first request ${f(firstWall)} (compile in worker ${f(first.compileMs)}); repeated: median ${f(median(repeats))} wall (last: evaluation in worker ${f(last.evalMs)}), compile ${f(last.compileMs)} (cached: ${last.cached}), digest ${f(median(digestTimes))}`);
    rows.push(['Repeated 100-file bundle (sandbox digest cache)', `compile ${f(last.compileMs)} (cached=${last.cached}; digest ${f(median(digestTimes))}); first compile in worker ${f(first.compileMs)}`, '~0']);
  } finally {
    await sandbox.close();
  }

  // 4. real-world-shaped policy over a megabyte input
  {
    const rw = realworldInput(1000);
    const text = JSON.stringify(rw);
    const parsed = JSON.parse(text);
    const b = compile(realworldFiles());
    let out: unknown;
    const [parse, evalTimes] = timePair(
      () => JSON.parse(text),
      () => {
        out = b.evalValue('data.realworld.admission.summary', { input: parsed, data: REALWORLD_DATA }).value;
      },
      Math.min(runs, 15),
    );
    const kib = (text.length / 1024).toFixed(0);
    say(`real-world admission policy, ${kib} KiB input: evaluate summary median ${f(median(evalTimes))}, JSON.parse ${f(median(parse))} (ratio ${(median(evalTimes) / median(parse)).toFixed(1)})`);
    say(`  summary: ${JSON.stringify(out)}`);
    rows.push([`Evaluate the real-world admission policy (realworld.ts, ${kib} KiB input)`, `${f(median(evalTimes))} (JSON.parse ${f(median(parse))})`, 'no slower than OPA (see bench/rego/wasm.ts)']);
  }

  // 5. opa-wasm
  let wasmNote: string;
  try {
    const opa = require('@open-policy-agent/opa-wasm') as { loadPolicy?: unknown };
    wasmNote =
      typeof opa.loadPolicy === 'function'
        ? '@open-policy-agent/opa-wasm loads, but it only runs policies already compiled to WebAssembly (`opa build -t wasm`); no `opa` binary is available here: bench/rego/wasm.ts compares against a wasm compiled and published elsewhere (the RBAC example).'
        : '@open-policy-agent/opa-wasm has no loadPolicy export; not usable.';
  } catch (e) {
    wasmNote = `@open-policy-agent/opa-wasm cannot be loaded: ${(e as Error).message}`;
  }
  say(wasmNote);

  if (md) {
    console.log('\n--- markdown ---');
    console.log(`### Rego engine (bench/rego/run.ts)\n`);
    console.log(`${new Date().toISOString().slice(0, 10)}; ${lines[0]}.\n`);
    console.log('| Measure | Result | Target |\n|---|---|---|');
    for (const [a, b, c] of rows) console.log(`| ${a} | ${b} | ${c} |`);
    console.log(`\n${wasmNote}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
