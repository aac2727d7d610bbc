/**
 * OPA conformance runner: `npm run conformance -- [dir] [--verbose] [--filter text]`.
 * Reads OPA's YAML cases from a path (never copied into the project), runs each one the way OPA's runner does
 * and prints pass/fail per directory, ending with the line `N passed, N failed`.
 * `runConformance` is the same run as a function; `conformance.spec.ts` uses it to hold `npm test` to baseline.json.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parse as parseYaml } from 'yaml';
import { compile, RegoError } from '../src/index';
import { CompiledPolicy } from '../src/compiler/policy';
import { Evaluator } from '../src/eval/evaluator';
import { parseTerm } from '../src/parser/parser';
import { Value, toJSON } from '../src/value';

interface Case {
  note: string;
  query: string;
  modules?: string[];
  data?: unknown;
  input?: unknown;
  input_term?: string;
  want_result?: Array<Record<string, unknown>>;
  want_error_code?: string;
  want_error?: string;
  strict_error?: boolean;
  sort_bindings?: boolean;
  want_defined?: boolean;
  ignore_generated_vars?: boolean;
  env?: Record<string, string>;
}

/** Error wordings that changed between OPA versions; a want_error in one matches text in another. */
const EQUIVALENT_WORDINGS: string[][] = [
  ['complete rules must not produce multiple outputs', 'produced conflicting values'],
  ['functions must not produce multiple outputs for same inputs', 'produced conflicting values for the same inputs'],
  ['object keys must be unique', 'object insert conflict', 'produced conflicting values'],
];

function findYaml(p: string): string[] {
  const st = fs.statSync(p);
  if (st.isFile()) return p.endsWith('.yaml') || p.endsWith('.yml') ? [p] : [];
  const out: string[] = [];
  for (const e of fs.readdirSync(p).sort()) out.push(...findYaml(path.join(p, e)));
  return out;
}

/** JSON text with numbers as float64 and (optionally) arrays in bindings sorted. */
function canon(v: unknown): string {
  if (typeof v === 'number' || typeof v === 'bigint') return 'n:' + String(Number(v));
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return '[' + v.map(canon).join(',') + ']';
  const o = v as Record<string, unknown>;
  return '{' + Object.keys(o).sort().map((k) => JSON.stringify(k) + ':' + canon(o[k])).join(',') + '}';
}

function sortArrays(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    out[k] = Array.isArray(v) ? [...v].sort((a, b) => (canon(a) < canon(b) ? -1 : canon(a) > canon(b) ? 1 : 0)) : v;
  }
  return out;
}

function errorMatches(want: string, got: string): boolean {
  const w = want.toLowerCase();
  const g = got.toLowerCase();
  if (g.includes(w)) return true;
  // compare without the `file:row: code: ` prefix, which OPA versions print differently
  const strip = (s: string) => s.replace(/^[^:]*:\d+: [a-z_]+: /, '').replace(/^[a-z_]+_error: /, '');
  if (g.includes(strip(w))) return true;
  for (const cls of EQUIVALENT_WORDINGS) {
    if (cls.some((p) => w.includes(p)) && cls.some((p) => g.includes(p))) return true;
  }
  return false;
}

function evalInputTerm(src: string): Value {
  const t = parseTerm(src, 'input_term');
  void t;
  const policy = new CompiledPolicy(compile({}).policy.builtins);
  const q = policy.compileQuery(`__input__ = ${src}`);
  const ev = new Evaluator(policy, {});
  const rows = ev.queryValues(q);
  if (!rows.length) throw new Error('input_term is undefined');
  return rows[0].__input__;
}

interface Outcome {
  ok: boolean;
  reason?: string;
}

function runCase(c: Case): Outcome {
  const files: Record<string, string> = {};
  (c.modules ?? []).forEach((m, i) => (files[`test-${i}.rego`] = m));
  const wantsError = c.want_error_code !== undefined || c.want_error !== undefined;
  if (!wantsError && c.want_result === undefined && c.want_defined === undefined) return { ok: false, reason: 'case has no expectation' };
  let rows: Array<Record<string, unknown>>;
  try {
    const bundle = compile(files);
    const input = c.input_term !== undefined ? evalInputTerm(c.input_term) : (c.input as Value | undefined);
    const r = bundle.evaluateValues(c.query, {
      input,
      data: c.data ?? {},
      strictBuiltinErrors: !!c.strict_error,
      maxSteps: 50_000_000,
      deadlineMs: 20_000,
    });
    rows = r.results.map((row) => {
      const o: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(row)) o[k] = toJSON(v);
      return o;
    });
  } catch (e) {
    if (!(e instanceof RegoError) || e.detail.startsWith('internal error:')) {
      const cause = (e as { cause?: Error }).cause ?? (e as Error);
      return { ok: false, reason: `internal error: ${cause.stack?.split('\n').slice(0, 4).join(' | ')}` };
    }
    if (!wantsError) return { ok: false, reason: `unexpected error: ${e.message}` };
    if (c.want_error_code !== undefined && e.code !== c.want_error_code) {
      return { ok: false, reason: `want code ${c.want_error_code}, got ${e.message}` };
    }
    if (c.want_error !== undefined && !errorMatches(c.want_error, e.message)) {
      return { ok: false, reason: `want error ${JSON.stringify(c.want_error)}, got ${JSON.stringify(e.message)}` };
    }
    return { ok: true };
  }
  if (wantsError) return { ok: false, reason: `want error ${c.want_error_code ?? ''} ${c.want_error ?? ''}, got ${JSON.stringify(rows).slice(0, 200)}` };
  if (c.ignore_generated_vars) {
    rows = rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !k.startsWith('__localq'))));
  }
  if (c.want_defined !== undefined) {
    const defined = rows.length > 0;
    return defined === c.want_defined ? { ok: true } : { ok: false, reason: `want defined=${c.want_defined}` };
  }
  let want = c.want_result ?? [];
  if (c.sort_bindings) {
    want = want.map(sortArrays);
    rows = rows.map(sortArrays);
  }
  const a = new Set(rows.map(canon));
  const b = new Set(want.map(canon));
  const same = a.size === b.size && [...a].every((x) => b.has(x));
  if (same) return { ok: true };
  return { ok: false, reason: `want ${JSON.stringify(want).slice(0, 300)}, got ${JSON.stringify(rows).slice(0, 300)}` };
}

/** Where the cases are read from when no path is given: OPA_CONFORMANCE_CASES, else a folder beside the repository. */
export function defaultCasesDir(): string {
  const fromEnv = process.env.OPA_CONFORMANCE_CASES;
  if (fromEnv) return path.resolve(fromEnv);
  return path.resolve(repoRoot(), '../shared/opa-conformance/cases');
}

/** The folder holding package.json, from this file or its compiled copy under dist/. */
function repoRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

export interface CaseResult {
  /** The case's `note` (OPA's name for it; a few notes are shared by several cases of one file). */
  note: string;
  /** The YAML file, relative to the cases folder. */
  file: string;
  /** The directory the per-directory summary counts it under. */
  dir: string;
  ok: boolean;
  reason?: string;
}

export interface ConformanceRun {
  results: CaseResult[];
  passed: number;
  failed: number;
  excluded: number;
  /** Files that are not valid YAML: their cases did not run at all. */
  unreadable: string[];
  ms: number;
}

export function loadExclusions(): Record<string, string> {
  const file = path.join(repoRoot(), 'libs/rego/conformance/exclusions.json'); // tsc does not copy it to dist/
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
}

/** Runs every case under `root` (a folder or one YAML file), except those in exclusions.json. */
export function runConformance(root: string, options: { filter?: string } = {}): ConformanceRun {
  const exclusions = loadExclusions();
  const results: CaseResult[] = [];
  const unreadable: string[] = [];
  let excluded = 0;
  const started = Date.now();
  for (const file of findYaml(root)) {
    const rel = path.relative(root, file) || path.basename(file);
    const dir = path.dirname(rel) === '.' ? path.basename(path.dirname(file)) : path.dirname(rel);
    let doc: { cases?: Case[] };
    try {
      doc = parseYaml(fs.readFileSync(file, 'utf8')) as { cases?: Case[] };
    } catch (e) {
      unreadable.push(`${rel}: cannot parse YAML: ${(e as Error).message}`);
      continue;
    }
    for (const c of doc.cases ?? []) {
      if (options.filter && !c.note.includes(options.filter)) continue;
      if (exclusions[c.note] !== undefined || exclusions[rel] !== undefined || exclusions[path.basename(file)] !== undefined) {
        excluded++;
        continue;
      }
      const env = c.env ?? {};
      const saved: Record<string, string | undefined> = {};
      for (const [k, v] of Object.entries(env)) {
        saved[k] = process.env[k];
        process.env[k] = v;
      }
      let out: Outcome;
      try {
        out = runCase(c);
      } catch (e) {
        out = { ok: false, reason: `runner error: ${(e as Error).message}` };
      } finally {
        for (const [k, v] of Object.entries(saved)) {
          if (v === undefined) delete process.env[k];
          else process.env[k] = v;
        }
      }
      results.push({ note: c.note, file: rel, dir, ok: out.ok, reason: out.reason });
    }
  }
  const passed = results.filter((r) => r.ok).length;
  return { results, passed, failed: results.length - passed, excluded, unreadable, ms: Date.now() - started };
}

function main(): void {
  const args = process.argv.slice(2);
  const verbose = args.includes('--verbose') || args.includes('-v');
  const fi = args.indexOf('--filter');
  const filter = fi >= 0 ? args[fi + 1] : undefined;
  const positional = args.filter((a, i) => !a.startsWith('-') && !(fi >= 0 && i === fi + 1));
  const root = positional[0] !== undefined ? path.resolve(positional[0]) : defaultCasesDir();
  if (!fs.existsSync(root)) {
    console.error(`no OPA conformance cases at ${root}: pass the folder of YAML cases as the first argument`);
    process.exit(2);
  }
  const run = runConformance(root, { filter });
  for (const line of run.unreadable) console.error(line);
  const perDir = new Map<string, { pass: number; fail: number; failures: string[] }>();
  for (const r of run.results) {
    let st = perDir.get(r.dir);
    if (!st) perDir.set(r.dir, (st = { pass: 0, fail: 0, failures: [] }));
    if (r.ok) st.pass++;
    else {
      st.fail++;
      st.failures.push(`${r.note} (${r.file}): ${r.reason}`);
    }
  }
  for (const [dir, st] of [...perDir.entries()].sort()) {
    console.log(`${dir.padEnd(32)} ${String(st.pass).padStart(4)} passed ${String(st.fail).padStart(4)} failed`);
    if (verbose) for (const f of st.failures) console.log(`    FAIL ${f}`);
  }
  if (run.excluded) console.log(`${run.excluded} excluded (see libs/rego/conformance/exclusions.json)`);
  console.log(`time ${run.ms} ms`);
  console.log(`${run.passed} passed, ${run.failed} failed`);
}

if (require.main === module) main();
