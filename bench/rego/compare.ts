/**
 * Paired comparison of two builds of the engine on the same workloads:
 * `npx ts-node --transpile-only bench/rego/compare.ts --base <folder holding another copy's libs/rego> [--runs N] [--cpu]`.
 * The machine is shared and noisy, so the two builds are timed alternately, run by run, and each figure is the
 * median of the per-run ratio (this build / base): a load spike hits both sides of a pair alike. The base copy
 * is a checkout or `git archive` of another commit (its `node_modules` must resolve: link it to this one's).
 * `--cpu` times by the process's CPU time instead of the wall clock: with many more runnable threads than cores,
 * wall time is mostly time spent waiting for a core, and its ratios swing far more than the builds differ.
 *
 * Workloads: the compliance policy of run.ts over its full input; the real-world-shaped policy of realworld.ts
 * over its megabyte input (summary, and json.match_schema of the whole document alone); a 100-file compile.
 */
import * as os from 'os';
import * as path from 'path';
import { NOW_S, generateInput } from './generate-input';
import { hundredFileBundle, policyFiles } from './generate-bundle';
import { REALWORLD_DATA, realworldFiles, realworldInput } from './realworld';
import { cpuMs, median, nowMs, pairedRounds } from './timing';

type Compile = (files: Record<string, string>, opts?: object) => { evalValue(ref: string, opts?: object): { value: unknown } };

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

interface Workload {
  name: string;
  /** builds the work for one engine: a function that does it once */
  prepare(compile: Compile): () => unknown;
}

function workloads(): Workload[] {
  const nowNs = BigInt(NOW_S) * 1_000_000_000n;
  const trails = JSON.parse(JSON.stringify(generateInput({ trails: 100, full: true })));
  const rw = realworldInput(1000);
  const big = hundredFileBundle();
  let n = 0;
  return [
    {
      name: 'compliance policy, 100 trails x 20 attestations (full input)',
      prepare: (compile) => {
        const b = compile(policyFiles());
        return () => b.evalValue('data.policy', { input: trails, data: { params: {} }, nowNs });
      },
    },
    {
      name: `real-world admission summary (${(JSON.stringify(rw).length / 1024).toFixed(0)} KiB input)`,
      prepare: (compile) => {
        const b = compile(realworldFiles());
        return () => b.evalValue('data.realworld.admission.summary', { input: rw, data: REALWORLD_DATA });
      },
    },
    {
      name: 'json.match_schema over the whole real-world input',
      prepare: (compile) => {
        const b = compile(realworldFiles());
        return () => b.evalValue('data.realworld.admission.document_valid', { input: rw, data: REALWORLD_DATA });
      },
    },
    {
      name: 'compile a 100-file bundle',
      prepare: (compile) => () => compile({ ...big, 'rules/r0.rego': big['rules/r0.rego'] + `\n# run ${n++}\n` }),
    },
  ];
}

function main(): void {
  const base = arg('--base');
  if (!base) {
    console.error('usage: compare.ts --base <folder holding libs/rego of the other build> [--runs N]');
    process.exit(2);
  }
  const runs = Number(arg('--runs') ?? 15);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mine = (require('../../libs/rego/src') as { compile: Compile }).compile;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const theirs = (require(path.resolve(base, 'libs/rego/src')) as { compile: Compile }).compile;
  const clock = process.argv.includes('--cpu') ? 'CPU time' : 'wall time';
  console.log(`node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}; ${runs} paired runs per workload (${clock}); base ${base}`);
  for (const w of workloads()) {
    const a = w.prepare(mine);
    const b = w.prepare(theirs);
    const { ta, tb, ratios } = pairedRounds(a, b, runs, process.argv.includes('--cpu') ? cpuMs : nowMs);
    const f = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1)) + ' ms';
    console.log(`${w.name}: this ${f(median(ta))}, base ${f(median(tb))}, median ratio this/base ${median(ratios).toFixed(3)}`);
  }
}

main();
