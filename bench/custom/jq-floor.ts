/**
 * What judging the custom benchmark's attestation costs without the service around it (issue 22: a custom
 * type with a 1 MB body and 10 jq rules, p50 at most 50 ms end to end). Run:
 * `npx ts-node --transpile-only bench/custom/jq-floor.ts [--kb N] [--samples N]`.
 *
 * CPU time of this process (all threads) per step, median of `--samples` after a warm-up: JSON text of the
 * data, JSON.parse of it, jq-wasm (real jq 1.8) reading the document and doing nothing else, each rule alone
 * (less that read), all rules as the one program the service runs, and the rules sandbox's whole `assess`
 * (hand-off to a warm worker, the JSON Schema, jq). This is the floor under the route's latency: no change
 * around jq can take the route below what jq itself costs.
 */
import * as os from 'node:os';
import { loadJq } from 'jq-wasm';
import { JqRulesSandbox } from '../../libs/jq-rules/src';
import { combinedProgram } from '../../libs/jq-rules/src/program';
import { report, RULES, SCHEMA } from './workload';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const KB = arg('kb', 1000);
const SAMPLES = arg('samples', 9);

function cpuMs<T>(f: () => T): { ms: number; value: T } {
  const before = process.cpuUsage();
  const value = f();
  const used = process.cpuUsage(before);
  return { ms: (used.user + used.system) / 1000, value };
}

async function cpuMsAsync<T>(f: () => Promise<T>): Promise<{ ms: number; wall: number; value: T }> {
  const before = process.cpuUsage();
  const started = process.hrtime.bigint();
  const value = await f();
  const wall = Number(process.hrtime.bigint() - started) / 1e6;
  const used = process.cpuUsage(before);
  return { ms: (used.user + used.system) / 1000, wall, value };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const data = report(KB);
  const text = JSON.stringify(data);
  const jq = await loadJq();
  const rows: Array<[string, number]> = [];
  const measure = (label: string, f: () => unknown) => {
    f();
    const ms = median(Array.from({ length: SAMPLES }, () => cpuMs(f).ms));
    rows.push([label, ms]);
    return ms;
  };
  const loadBefore = os.loadavg().map((l) => l.toFixed(2)).join(' ');
  measure('JSON.stringify of the data', () => JSON.stringify(data));
  measure('JSON.parse of the data', () => JSON.parse(text));
  const read = measure('jq reads the document (`length`)', () => jq.raw(text, 'length', ['-c']));
  for (const rule of RULES) {
    const ms = median(Array.from({ length: SAMPLES }, () => cpuMs(() => jq.raw(text, rule, ['-c'])).ms));
    rows.push([`  rule \`${rule}\`, less the read`, ms - read]);
  }
  const program = combinedProgram(RULES, []);
  const combined = measure('jq: all 10 rules as one program (the service)', () => {
    const r = jq.raw(text, program, ['-c']);
    if (r.exitCode !== 0) throw new Error(r.stderr);
  });

  const sandbox = new JqRulesSandbox({ maxThreads: 1, defaultDeadlineMs: 30_000 });
  const set = { schema: SCHEMA, schemaKey: 'bench', rules: RULES, summary: [] };
  try {
    const first = await sandbox.assess(set, text);
    if (!first.ok || !first.value.outcomes.every((o) => o.passed)) throw new Error(`the workload should pass: ${JSON.stringify(first)}`);
    const runs = [];
    for (let i = 0; i < SAMPLES; i++) runs.push(await cpuMsAsync(() => sandbox.assess(set, text)));
    rows.push(['rules sandbox `assess` (worker hand-off, JSON Schema, jq)', median(runs.map((r) => r.ms))]);
    rows.push(['  the same, wall time', median(runs.map((r) => r.wall))]);
  } finally {
    await sandbox.close();
  }
  console.log(`document ${(text.length / 1e6).toFixed(2)} MB, ${RULES.length} rules, ${SAMPLES} samples; load average ${loadBefore} -> ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log('| step | CPU ms (median) |\n| --- | --- |');
  for (const [label, ms] of rows) console.log(`| ${label} | ${ms.toFixed(1)} |`);
  console.log(`jq's share: reading ${read.toFixed(1)} ms + rules ${(combined - read).toFixed(1)} ms = ${combined.toFixed(1)} ms of CPU against a 50 ms end-to-end target`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
