/**
 * One entry point for the benchmarks: `npm run bench -- <name> [options]`; `npm run bench` alone lists them.
 * Each benchmark is its own script under bench/<name>/ (see its header and bench/RESULTS.md); this only runs it
 * in a child process, after building dist/ when the benchmark starts the real service.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

interface Bench {
  script: string;
  /** Starts dist/src/main.js, so the service is built first. */
  needsBuild: boolean;
  what: string;
  options: string;
  /** Options that make a run of a few seconds, to check the benchmark still starts and ends. */
  quick: string;
}

const BENCHES: Record<string, Bench> = {
  'audit-package': {
    script: 'bench/audit-package/run.ts',
    needsBuild: true,
    what: 'a trail\'s audit package (1,000 attestations, 100 MB attached): MB/s streamed and the service\'s RSS growth',
    options: '[--attestations N] [--attached N] [--mb N] [--rounds N] [--md] [--main <A>/src/main.js --main <B>/src/main.js] [--cpu-prof <dir>]',
    quick: '--attestations 20 --attached 2 --rounds 1',
  },
  rego: {
    script: 'bench/rego/run.ts',
    needsBuild: false,
    what: 'Rego engine: compliance policy vs JSON.parse, 100-file bundle compile, sandbox digest cache',
    options: '[--runs N] [--trails N] [--rules] [--md]',
    quick: '--runs 3 --trails 10',
  },
  ingest: {
    script: 'bench/ingest/run.ts',
    needsBuild: true,
    what: 'generic attestation ingest vs a bare express route (1 KB, then 100 KB attachments)',
    options: '[--seconds N] [--rounds N] [--clients N] [--flows N] [--small-only] [--md]',
    quick: '--seconds 1 --rounds 1 --small-only',
  },
  'ingest-compare': {
    script: 'bench/ingest/compare.ts',
    needsBuild: false,
    what: 'two builds of the service side by side (copies of dist/ under bench/.work/), paired rounds',
    options: '<A>/src/main.js <B>/src/main.js [--rounds N] [--seconds N] [--attachment-kb N]',
    quick: 'dist/src/main.js dist/src/main.js --rounds 1 --seconds 1',
  },
  'ingest-profile': {
    script: 'bench/ingest/profile.ts',
    needsBuild: true,
    what: 'where the service\'s CPU goes per 1 KB attestation: a --cpu-prof of the ingest path, by area and function',
    options: '[--seconds N] [--top N] [--keep DIR] [--node BINARY] [--main MAIN_JS]',
    quick: '--seconds 2 --top 5',
  },
  'ingest-pg': {
    script: 'bench/ingest/pg-statements.ts',
    needsBuild: true,
    what: 'where PostgreSQL\'s time goes per 1 KB attestation: pg_stat_statements per statement (planning apart), rows and HOT updates per table',
    options: '[--seconds N] [--top N] [--node BINARY] [--main MAIN_JS]',
    quick: '--seconds 2 --top 5',
  },
  'ingest-pg-perf': {
    script: 'bench/ingest/pg-perf.ts',
    needsBuild: true,
    what: 'where PostgreSQL\'s CPU goes per 1 KB attestation, inside the server: perf samples of its processes by area (needs perf)',
    options: '[--seconds N] [--node BINARY] [--main MAIN_JS] [--keep FILE]',
    quick: '--seconds 1',
  },
  junit: {
    script: 'bench/junit/run.ts',
    needsBuild: true,
    what: 'junit attestations with a 5 MB report of 20,000 test cases, one at a time; a 50 MB report',
    options: '[--requests N] [--cases N] [--generic] [--md]',
    quick: '--requests 3 --cases 2000',
  },
  ui: {
    script: 'bench/ui/run.ts',
    needsBuild: true,
    what: 'web interface pages in headless Chromium (LCP, ready, bytes) over 100 flows, 100,000 trails, 1,000,000 attestations, 50 environments',
    options: '[--flows N] [--trails-per-flow N] [--attestations-per-trail N] [--envs N] [--samples N] [--md]',
    quick: '--flows 3 --trails-per-flow 40 --attestations-per-trail 2 --envs 2 --samples 1',
  },
  listing: {
    script: 'bench/listing/run.ts',
    needsBuild: true,
    what: 'GET /attestations/{org}/{flow} pages over one flow of 1,000,000 attestations',
    options: '[--rows N] [--samples N] [--md]',
    // the time-span case needs 50,000 rows after the first 40%
    quick: '--rows 100000 --samples 20',
  },
  environments: {
    script: 'bench/environments/run.ts',
    needsBuild: true,
    what: 'environment reports: a 5,000-pod K8S report unchanged and changed (vs bare express), 50 environments every 10 s',
    options: '[--pods N] [--images N] [--rounds N] [--samples N] [--fleet N] [--fleet-pods N] [--fleet-seconds S] [--node-args F] [--main MAIN_JS] [--json] [--md]',
    quick: '--pods 500 --images 100 --rounds 1 --samples 3 --fleet 2 --fleet-pods 100 --fleet-seconds 10',
  },
  notifications: {
    script: 'bench/notifications/run.ts',
    needsBuild: true,
    what: 'notification delivery lag, attestation commit to a local webhook receiver, at a steady rate',
    options: '[--rate N] [--seconds N] [--hang] [--md]',
    quick: '--rate 20 --seconds 2',
  },
  reference: {
    script: 'bench/reference/run.ts',
    needsBuild: true,
    what: 'artifact listing, search and environment event pages at 1,000,000 rows each; the audit-log CSV streamed (memory)',
    options: '[--rows N] [--samples N] [--md]',
    quick: '--rows 20000 --samples 5',
  },
  moments: {
    script: 'bench/moments/run.ts',
    needsBuild: true,
    what: 'trail moment expressions on a trail with 10,000 attestations',
    options: '[--attestations N] [--requests N] [--md]',
    // the `-5000` expression needs 5,000 events
    quick: '--attestations 6000 --requests 5',
  },
  evaluations: {
    script: 'bench/evaluations/run.ts',
    needsBuild: true,
    what: 'server-side evaluations: 100 trails x 20 attestations at 4 clients, one-trail rate, a hostile policy beside',
    options: '[--trails N] [--attestations N] [--requests N] [--seconds N] [--main MAIN_JS] [--json]',
    quick: '--trails 5 --attestations 4 --requests 8 --seconds 1',
  },
  'house-compare': {
    script: 'bench/house/compare.ts',
    needsBuild: false,
    what: 'two builds side by side (copies of dist/ under bench/.work/) on evaluations, environment reports or ingest, paired rounds',
    options: '<A>/src/main.js <B>/src/main.js --bench evaluations|environments|ingest [--rounds N] [--requests N] [--seconds N] [--samples N] [--node-args F]',
    quick: 'dist/src/main.js dist/src/main.js --bench environments --rounds 1 --pods 200 --images 40 --samples 2',
  },
  'house-statements': {
    script: 'bench/house/statements.ts',
    needsBuild: false,
    what: 'what PostgreSQL runs per 100-trail evaluation, build by build (pg_stat_statements): calls, rows, time per statement',
    options: '<A>/src/main.js [<B>/src/main.js ...] [--requests N] [--top N] [--trails N] [--attestations N]',
    quick: 'dist/src/main.js --trails 3 --attestations 3 --requests 4 --top 5',
  },
  custom: {
    script: 'bench/custom/run.ts',
    needsBuild: true,
    what: 'custom attestations: a ~1 MB attestation_data judged by a JSON Schema and 10 jq rules, paired with generic ones of the same bytes',
    options: '[--rounds N] [--requests N] [--kb N] [--md]',
    quick: '--rounds 1 --requests 3 --kb 100',
  },
  gate: {
    script: 'bench/gate/run.ts',
    needsBuild: true,
    what: 'the deployment gate: assert artifact (3 policies x 10 rules), admission of a 5-container pod, 5,000-pod reports with policies',
    options: '[--requests N] [--pods N] [--images N] [--rounds N]',
    quick: '--requests 10 --pods 200 --images 40 --rounds 1',
  },
  'log-sequencer-cost': {
    script: 'bench/evidence-log/sequencer-cost.ts',
    needsBuild: true,
    what: 'evidence log: service and PostgreSQL CPU per attestation the sequencer integrates, measured in a quiet window after the load',
    options: '[--seconds N] [--runs N] [--main <main.js>] [--node <node binary>]',
    quick: '--seconds 1',
  },
  ids: {
    script: 'bench/ids/run.ts',
    needsBuild: false,
    what: 'PostgreSQL CPU and WAL per attestation row inserted into a large table: random ids against time-ordered ones',
    options: '[--prefill N] [--rows N]',
    quick: '--prefill 2000 --rows 2000',
  },
  'evidence-log': {
    script: 'bench/evidence-log/run.ts',
    needsBuild: true,
    what: 'evidence log: commit -> integrated and -> signed checkpoint lag under ingest; inclusion and consistency proofs at 1,000,000 leaves',
    options: '[--leaves N] [--samples N] [--seconds N] [--clients N]',
    quick: '--leaves 5000 --samples 10 --seconds 2',
  },
  load: {
    script: 'bench/load/run.ts',
    needsBuild: true,
    what: 'mixed traffic (ingest, list, moments, environment reports, evaluations) at a fixed rate, then the highest rate with p99 < 500 ms',
    options: '[--rate N] [--seconds N] [--step-seconds N] [--max-rate N]',
    quick: '--rate 20 --seconds 2 --step-seconds 2 --max-rate 40',
  },
};

const ROOT = path.resolve(__dirname, '..');

function usage(code: number): never {
  const lines = ['usage: npm run bench -- <name> [options]   (figures and method: bench/RESULTS.md)', ''];
  for (const [name, b] of Object.entries(BENCHES)) {
    lines.push(`  ${name.padEnd(15)} ${b.what}`);
    lines.push(`  ${''.padEnd(15)} options: ${b.options}; a short run: ${b.quick}`);
  }
  (code ? console.error : console.log)(lines.join('\n'));
  process.exit(code);
}

function run(command: string, args: string[]): number {
  const r = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

function main(): void {
  const [name, ...rest] = process.argv.slice(2);
  const bench = name ? BENCHES[name] : undefined;
  if (!name || name === '--help' || name === '-h') usage(0);
  if (!bench) {
    console.error(`no benchmark named ${JSON.stringify(name)}\n`);
    usage(2);
  }
  if (bench.needsBuild) {
    const tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
    const built = run(process.execPath, [tsc, '-p', 'tsconfig.build.json']);
    if (built !== 0) process.exit(built);
  }
  process.exit(run(process.execPath, ['-r', 'ts-node/register/transpile-only', bench.script, ...rest]));
}

main();
