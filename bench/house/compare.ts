/**
 * Two (or more) builds of the service side by side on the evaluations, environment-report or ingest benchmark,
 * for a change whose effect is smaller than this machine's drift (issue 21: "within 2% of the build before").
 * Run: `npm run bench -- house-compare <A>/src/main.js <B>/src/main.js --bench evaluations|environments|ingest
 * [--rounds N] [...]`, where A, B ... are copies of a build's dist/ inside the project folder (e.g.
 * bench/.work/<name>/, so that they find node_modules); each build runs against its own embedded PostgreSQL and
 * migrates it itself.
 *
 * Every build is started and loaded once (the data of bench/evaluations or bench/environments), then measured in
 * ROUNDS rounds; each round measures every build in turn, starting with the next build each round, so that
 * drift and what one leaves behind hit all alike. A round's figure of build B is divided by A's of the same round:
 * the median of those paired ratios is the answer (below 1 is faster for latencies, above 1 for rates), and, as
 * the build measured second pays for what the first left running (its autovacuum, its pool's upkeep: up to 10%
 * of CPU per evaluation on a loaded machine), the "balanced" median over consecutive rounds (every build first
 * once) of their geometric mean; use an even number of rounds. The load average is printed with every round.
 * - evaluations: REQUESTS evaluations of the compliance policy over 100 trails x 20 attestations at 4 clients
 *   (p50, p99, CPU per evaluation of the service and of its PostgreSQL, and the service's own split of the time:
 *   pin, store, run, record), then one-trail evaluations at 8 clients for SECONDS (rate, p50, p99, CPU).
 * - environments: SAMPLES (40) unchanged reports of 5,000 pods, then SAMPLES changed ones (one image of 1,000 changes),
 *   sequential: p50 and CPU per report of the service and of its PostgreSQL.
 * - ingest: bench/ingest/compare.ts with the same builds and rounds (its own ratio to bare express).
 * A build may be given more than once (A, B, B, A, B, A, A, B: four stacks of each): a last table then gives each
 * build over the first as the geometric mean over its stacks, with the spread of each build's stacks.
 */
import { spawnSync } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { machine } from '../ingest/harness';
import { EvaluationRig, startEvaluationRig } from '../evaluations/run';
import { EnvironmentRig, reportRound, startEnvironmentRig } from '../environments/run';
import { numberOptions } from '../options';

const args = process.argv.slice(2);
const option = numberOptions(args);
const builds = args.filter((a, i) => a.endsWith('.js') && args[i - 1] !== '--node-args');
const BENCH = args.includes('--bench') ? args[args.indexOf('--bench') + 1] : '';
const NAMES = 'ABCDEFGH';
const ROUNDS = option('rounds', 10);
// evaluations
const TRAILS = option('trails', 100);
const ATTESTATIONS = option('attestations', 20);
const REQUESTS = option('requests', 120);
const SECONDS = option('seconds', 5);
// environments
const PODS = option('pods', 5000);
const IMAGES = option('images', 1000);
const CONTAINERS = option('containers', 5);
const SAMPLES = option('samples', 40);
/** Flags for every build's node process (e.g. `--max-semi-space-size=64`); none by default. */
const NODE_ARGS = args.includes('--node-args') ? args[args.indexOf('--node-args') + 1].split(' ').filter(Boolean) : [];

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const median = (values: number[]) => {
  const s = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (!s.length) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** A benchmark as this script runs it: per build, a set of named figures per round. */
interface Figure {
  name: string;
  unit: string;
  /** Larger is better (a rate), so a regression is a ratio below 1. */
  higherIsBetter?: boolean;
}

interface Subject {
  figures: Figure[];
  start(main: string): Promise<{ measure(): Promise<number[]>; stop(): Promise<void> }>;
}

const evaluations: Subject = {
  figures: [
    { name: `${TRAILS} trails p50`, unit: 'ms' },
    { name: `${TRAILS} trails p99`, unit: 'ms' },
    { name: `${TRAILS} trails CPU/eval`, unit: 'ms' },
    { name: `${TRAILS} trails PG CPU/eval`, unit: 'ms' },
    // The service's own timing lines (medians of the round): where a difference in latency is.
    { name: 'pin', unit: 'ms' },
    { name: 'store', unit: 'ms' },
    { name: 'run', unit: 'ms' },
    { name: 'run: input digest', unit: 'ms' },
    { name: 'run: hand-off', unit: 'ms' },
    { name: 'run: parse in worker', unit: 'ms' },
    { name: 'run: evaluate', unit: 'ms' },
    { name: 'record', unit: 'ms' },
    { name: 'one trail rate', unit: '/s', higherIsBetter: true },
    { name: 'one trail p50', unit: 'ms' },
    { name: 'one trail p99', unit: 'ms' },
    { name: 'one trail CPU/eval', unit: 'ms' },
    { name: 'one trail PG CPU/eval', unit: 'ms' },
  ],
  async start(main) {
    const rig: EvaluationRig = await startEvaluationRig({ trails: TRAILS, attestations: ATTESTATIONS, main, quiet: true, nodeArgs: NODE_ARGS });
    // Warm: worker threads, compiled bundles, the trails' cached elements, the JIT.
    await rig.allTrails(16);
    await rig.oneTrail(2, false);
    return {
      async measure() {
        const all = await rig.allTrails(REQUESTS);
        if (all.notCompleted) throw new Error(`${all.notCompleted} evaluations not completed`);
        const one = await rig.oneTrail(SECONDS, false);
        return [all.p50, all.p99, all.cpuMs, all.postgresCpuMs, all.split.pin, all.split.store, all.split.evaluate, all.split.digest, all.split.handOff, all.split.parse, all.split.engine, all.split.record, one.rate, one.p50, one.p99, one.cpuMs, one.postgresCpuMs];
      },
      stop: () => rig.stop(),
    };
  },
};

const environments: Subject = {
  figures: [
    { name: 'unchanged p50', unit: 'ms' },
    { name: 'unchanged CPU/report', unit: 'ms' },
    { name: 'unchanged PG CPU/report', unit: 'ms' },
    { name: 'changed p50', unit: 'ms' },
    { name: 'changed CPU/report', unit: 'ms' },
    { name: 'changed PG CPU/report', unit: 'ms' },
  ],
  async start(main) {
    const rig: EnvironmentRig = await startEnvironmentRig({ pods: PODS, images: IMAGES, containers: CONTAINERS, main, nodeArgs: NODE_ARGS });
    await reportRound(rig, 'unchanged', 5);
    await reportRound(rig, 'changed', 4);
    return {
      async measure() {
        const u = await reportRound(rig, 'unchanged', SAMPLES);
        const c = await reportRound(rig, 'changed', SAMPLES);
        return [u.p50, u.serviceCpuMs, u.postgresCpuMs, c.p50, c.serviceCpuMs, c.postgresCpuMs];
      },
      stop: () => rig.stop(),
    };
  },
};

/**
 * With several stacks of one build (A, B, B, A ...: two stacks of one build differ by several percent), each build
 * against the first one's: the geometric mean of its stacks' balanced ratios over that of the first build's stacks,
 * and how far the stacks of each build are apart (largest over smallest).
 */
function printPerBuild(subject: Subject, balanced: number[][]): void {
  const distinct = [...new Set(builds)];
  if (distinct.length === builds.length) return;
  const stacksOf = (build: string) => builds.map((b, k) => (b === build ? k : -1)).filter((k) => k >= 0);
  const geomean = (xs: number[]) => Math.exp(xs.reduce((sum, x) => sum + Math.log(x), 0) / xs.length);
  const spread = (xs: number[]) => Math.max(...xs) / Math.min(...xs);
  const base = stacksOf(distinct[0]);
  console.log(`\nper build, over its stacks (${distinct.map((b) => `${stacksOf(b).map((k) => NAMES[k]).join('')} = ${b}`).join('; ')}):`);
  console.log(`| figure | ${distinct.slice(1).map((_, i) => `build ${i + 2} / build 1`).join(' | ')} | ${distinct.map((_, i) => `spread of build ${i + 1}'s stacks`).join(' | ')} |`);
  console.log(`| --- | ${distinct.slice(1).map(() => '---').join(' | ')} | ${distinct.map(() => '---').join(' | ')} |`);
  subject.figures.forEach((f, j) => {
    const of = (build: string) => stacksOf(build).map((k) => balanced[k][j]);
    const ratios = distinct.slice(1).map((b) => (geomean(of(b)) / geomean(base.map((k) => balanced[k][j]))).toFixed(3));
    console.log(`| ${f.name} (${f.unit}${f.higherIsBetter ? ', higher is better' : ''}) | ${ratios.join(' | ')} | ${distinct.map((b) => spread(of(b)).toFixed(3)).join(' | ')} |`);
  });
}

async function compare(subject: Subject): Promise<void> {
  console.log(`house compare (${BENCH}): ${builds.length} builds, ${ROUNDS} rounds; ${machine()}; load average ${loadAverage()}`);
  builds.forEach((b, k) => console.log(`  ${NAMES[k]} = ${b}`));
  const started: Array<Awaited<ReturnType<Subject['start']>>> = [];
  try {
    for (const build of builds) {
      const t0 = Date.now();
      started.push(await subject.start(path.resolve(build)));
      console.log(`  ${NAMES[started.length - 1]} started and loaded in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    }
    // figures[k][round][figure]
    const figures: number[][][] = builds.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const k of builds.map((_, i) => (i + round) % builds.length)) figures[k].push(await started[k].measure());
      const line = [`round ${String(round + 1).padStart(2)} (load ${loadAverage()}):`];
      subject.figures.forEach((f, j) => {
        const values = builds.map((_, k) => figures[k][round][j]);
        line.push(`${f.name} ${values.map((v) => v.toFixed(1)).join('/')}${builds.length > 1 ? ` (${(values[1] / values[0]).toFixed(3)})` : ''}`);
      });
      console.log(line.join(' | '));
    }
    console.log(
      `\nmedians over ${ROUNDS} rounds (load average at the end ${loadAverage()}); X/A: the median of the per-round ratios, and (balanced) the median` +
        ` over consecutive rounds of their geometric mean, ${builds.length} rounds each so that every build went first once (the build measured` +
        ` after another pays for what that one left running: its autovacuum, its pool's upkeep):`,
    );
    const others = builds.slice(1).map((_, k) => NAMES[k + 1]);
    // balanced[k][figure]: stack k's balanced ratio to A (A's own is 1)
    const balanced: number[][] = builds.map(() => subject.figures.map(() => 1));
    console.log(`| figure | ${builds.map((_, k) => NAMES[k]).join(' | ')} | ${others.map((n) => `${n}/A | ${n}/A balanced`).join(' | ')} |`);
    console.log(`| --- | ${builds.map(() => '---').join(' | ')} | ${others.map(() => '--- | ---').join(' | ')} |`);
    subject.figures.forEach((f, j) => {
      const medians = builds.map((_, k) => median(figures[k].map((r) => r[j])));
      const ratios = builds.slice(1).map((_, i) => {
        const perRound = figures[i + 1].map((r, round) => r[j] / figures[0][round][j]);
        const groups: number[] = [];
        for (let g = 0; g + builds.length <= perRound.length; g += builds.length) {
          const group = perRound.slice(g, g + builds.length);
          // A zero figure (no CPU tick in a short round) has no ratio.
          groups.push(group.every((x) => x > 0 && Number.isFinite(x)) ? Math.exp(group.reduce((sum, x) => sum + Math.log(x), 0) / builds.length) : NaN);
        }
        balanced[i + 1][j] = median(groups);
        return `${median(perRound).toFixed(3)} | ${median(groups).toFixed(3)}`;
      });
      console.log(`| ${f.name} (${f.unit}${f.higherIsBetter ? ', higher is better' : ''}) | ${medians.map((m) => m.toFixed(2)).join(' | ')} | ${ratios.join(' | ')} |`);
    });
    printPerBuild(subject, balanced);
  } finally {
    for (const s of started) await s.stop();
  }
}

async function main(): Promise<void> {
  if (builds.length < 2 || builds.length > NAMES.length || !['evaluations', 'environments', 'ingest'].includes(BENCH)) {
    throw new Error('usage: compare.ts <A main.js> <B main.js> [...] --bench evaluations|environments|ingest [--rounds N]');
  }
  if (BENCH === 'ingest') {
    // The ingest comparison already exists; pass the builds and the options on.
    const rest = args.filter((a, i) => !a.endsWith('.js') && a !== '--bench' && args[i - 1] !== '--bench');
    const r = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', path.join(__dirname, '../ingest/compare.ts'), ...builds, ...rest], {
      stdio: 'inherit',
      cwd: path.resolve(__dirname, '../..'),
    });
    process.exit(r.status ?? 1);
  }
  await compare(BENCH === 'evaluations' ? evaluations : environments);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
