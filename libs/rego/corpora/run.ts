/**
 * Real-world policy suites: `npm run corpora -- [--corpora <dir>] [--verbose] [suite...]`.
 *
 * Each suite in suites.json is a public policy repository, read from a path (never copied into this project): the
 * folder given by `--corpora`, else REGO_CORPORA, else `../shared/rego-corpora` beside the repository. A suite is
 * found there as `<owner>+<name>` or `<name>`: a checkout, or a git directory (bare, or holding `repo/`) from
 * which the recorded commit is extracted into a temp folder. Its `_test.rego` files run through `rego test` the
 * way the project's own CI runs `opa test` (the `runs` of the suite), and the runner prints per suite
 * `N passed, N failed`, then the failures outside the suite's `expectedFailures` (each listed one carries a
 * reason; only tests that need the network may be listed). Exit code 1 when a suite does worse than recorded, an
 * expected failure now passes (it must leave the list), or a suite is missing when named explicitly.
 */
import { execFileSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { BUILTINS } from '../src/builtins/registry';
import { BufferIo } from '../cli/io';
import { testCommand } from '../cli/test-command';

export interface SuiteRun {
  /** run once per directory matching this glob (relative to the repository root, `*` per path segment) */
  each?: string;
  /** files of that directory to pass (a glob on names), as `opa test ${folder}/*.rego` does */
  files?: string;
  /** paths to pass (relative to the directory, or to the root without `each`) */
  paths?: string[];
  /** extra `rego test` arguments (`--v0-compatible`, `-b`, ...) */
  args?: string[];
  /** builtins the suite's tool adds (a capabilities JSON fragment, relative to this folder), merged with the engine's */
  capabilities?: string;
  /** modules implementing some of those builtins (relative to this folder), passed as `--builtins` */
  builtins?: string[];
}

export interface Suite {
  name: string;
  repo: string;
  commit: string;
  /** how the project runs its tests upstream (what `runs` reproduces) */
  upstream: string;
  runs: SuiteRun[];
  /** the counts recorded at `commit`: the floor */
  expected: { passed: number; failed: number };
  /** `<file>#<test ref>` -> why it cannot pass here (network access only) */
  expectedFailures: Record<string, string>;
}

export interface TestOutcome {
  key: string; // <file relative to the repository>#<data.pkg.test_x>
  ok: boolean;
  detail?: string;
}

export interface SuiteResult {
  suite: Suite;
  root: string;
  passed: number;
  failed: number;
  outcomes: TestOutcome[];
  /** compile errors and other output that is not a test line */
  errors: string[];
  ms: number;
}

const HERE = __dirname;

export function loadSuites(): Suite[] {
  return (JSON.parse(fs.readFileSync(path.join(repoRoot(), 'libs/rego/corpora/suites.json'), 'utf8')) as { suites: Suite[] }).suites;
}

/** The folder holding package.json (this file may run from its compiled copy under dist/). */
function repoRoot(): string {
  let dir = HERE;
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

export function defaultCorporaDir(): string {
  const fromEnv = process.env.REGO_CORPORA;
  if (fromEnv) return path.resolve(fromEnv);
  return path.resolve(repoRoot(), '../shared/rego-corpora');
}

/** Where a suite's files are, at its recorded commit; undefined when the corpora folder does not have it. */
export function locateSuite(suite: Suite, corpora: string): string | undefined {
  const [owner, name] = suite.repo.split('/');
  for (const cand of [`${owner}+${name}`, name, suite.name]) {
    const dir = path.join(corpora, cand);
    if (!fs.existsSync(dir)) continue;
    const gitDir = [path.join(dir, 'repo'), dir].find((d) => isGitDir(d));
    if (gitDir) return extract(gitDir, suite);
    return dir;
  }
  return undefined;
}

function isGitDir(d: string): boolean {
  return fs.existsSync(path.join(d, 'HEAD')) && fs.existsSync(path.join(d, 'objects'));
}

/** `git archive` of the recorded commit into a temp folder, reused while it is complete. */
function extract(gitDir: string, suite: Suite): string {
  const out = path.join(os.tmpdir(), `rego-corpora-${suite.name}-${suite.commit.slice(0, 12)}`);
  const done = path.join(out, '.rego-corpora-complete');
  if (fs.existsSync(done)) return out;
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const tar = execFileSync('git', ['--git-dir', gitDir, 'archive', '--format=tar', suite.commit], { maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', out], { input: tar, maxBuffer: 1 << 30 });
  fs.writeFileSync(done, suite.commit);
  return out;
}

/** Directories under `root` matching a `/`-separated glob whose segments may use `*`. */
function matchDirs(root: string, glob: string): string[] {
  let dirs = [''];
  for (const seg of glob.split('/')) {
    const re = globRe(seg);
    const next: string[] = [];
    for (const d of dirs) {
      const abs = path.join(root, d);
      if (!fs.existsSync(abs)) continue;
      for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
        if (e.isDirectory() && re.test(e.name)) next.push(path.join(d, e.name));
      }
    }
    dirs = next;
  }
  return dirs.sort();
}

function globRe(seg: string): RegExp {
  return new RegExp('^' + seg.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.') + '$');
}

/** The engine's builtins plus the suite's own, as one capabilities file (what the suite's tool compiles with). */
function capabilitiesFile(extra: string): string {
  const own = JSON.parse(fs.readFileSync(path.join(repoRoot(), 'libs/rego/corpora', extra), 'utf8')) as { builtins: unknown[] };
  const builtins = [...[...BUILTINS.keys()].map((name) => ({ name })), ...own.builtins];
  const text = JSON.stringify({ builtins });
  const file = path.join(os.tmpdir(), `rego-corpora-caps-${crypto.createHash('sha256').update(text).digest('hex').slice(0, 16)}.json`);
  if (!fs.existsSync(file)) fs.writeFileSync(file, text);
  return file;
}

const TEST_LINE = /^(.+?):(\d+): (data\.\S+): (PASS|FAIL|ERROR) \([^)]*\)(?:: (.*))?$/;

export async function runSuite(suite: Suite, root: string): Promise<SuiteResult> {
  const started = Date.now();
  const result: SuiteResult = { suite, root, passed: 0, failed: 0, outcomes: [], errors: [], ms: 0 };
  for (const run of suite.runs) {
    const dirs = run.each ? matchDirs(root, run.each) : [''];
    for (const dir of dirs) {
      const abs = path.join(root, dir);
      let paths: string[] = (run.paths ?? []).map((p) => path.join(dir, p));
      if (run.files) {
        const re = globRe(run.files);
        paths.push(...fs.readdirSync(abs).filter((f) => re.test(f) && fs.statSync(path.join(abs, f)).isFile()).sort().map((f) => path.join(dir, f)));
      }
      if (!run.paths && !run.files) paths = [dir === '' ? '.' : dir];
      if (paths.length === 0) continue;
      const args = ['-v', ...(run.args ?? [])];
      if (run.capabilities) args.push('--capabilities', capabilitiesFile(run.capabilities));
      for (const b of run.builtins ?? []) args.push('--builtins', path.join(repoRoot(), 'libs/rego/corpora', b));
      const io = new BufferIo();
      await testCommand([...args, ...paths], io, root);
      let counted = false;
      for (const line of io.stdout.split('\n')) {
        const m = TEST_LINE.exec(line);
        if (m) {
          const ok = m[4] === 'PASS';
          result.outcomes.push({ key: `${m[1]}#${m[3]}`, ok, detail: ok ? undefined : `${m[4]}${m[5] ? ': ' + m[5] : ''}` });
          continue;
        }
        const c = /^(\d+) passed, (\d+) failed$/.exec(line);
        if (c) {
          result.passed += Number(c[1]);
          result.failed += Number(c[2]);
          counted = true;
        }
      }
      if (io.stderr.trim()) result.errors.push(`${dir || '.'}: ${io.stderr.trim()}`);
      if (!counted && !io.stderr.trim()) result.errors.push(`${dir || '.'}: no test summary`);
    }
  }
  result.ms = Date.now() - started;
  return result;
}

export interface Verdict {
  /** failures not listed in expectedFailures */
  unexpected: TestOutcome[];
  /** listed failures that now pass (to remove from the list) */
  fixed: string[];
  /** fewer passes than recorded, or modules that no longer compile */
  regressed: boolean;
}

export function judge(r: SuiteResult): Verdict {
  const listed = r.suite.expectedFailures;
  const failing = new Set(r.outcomes.filter((o) => !o.ok).map((o) => o.key));
  const unexpected = r.outcomes.filter((o) => !o.ok && listed[o.key] === undefined);
  const fixed = Object.keys(listed).filter((k) => !failing.has(k));
  const regressed = r.passed < r.suite.expected.passed || r.errors.length > 0;
  return { unexpected, fixed, regressed };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const verbose = args.includes('--verbose') || args.includes('-v');
  const ci = args.indexOf('--corpora');
  const corpora = ci >= 0 ? path.resolve(args[ci + 1]) : defaultCorporaDir();
  const names = args.filter((a, i) => !a.startsWith('-') && !(ci >= 0 && i === ci + 1));
  const suites = loadSuites().filter((s) => names.length === 0 || names.includes(s.name));
  if (names.length && suites.length !== names.length) {
    console.error(`unknown suite(s): ${names.filter((n) => !suites.some((s) => s.name === n)).join(', ')}`);
    process.exit(2);
  }
  let bad = false;
  let found = 0;
  for (const suite of suites) {
    const root = locateSuite(suite, corpora);
    const label = `${suite.name} (${suite.repo}@${suite.commit.slice(0, 12)})`;
    if (!root) {
      console.log(`${label}: not found under ${corpora}, skipped`);
      if (names.length) bad = true;
      continue;
    }
    found++;
    const r = await runSuite(suite, root);
    const v = judge(r);
    const listed = Object.keys(suite.expectedFailures).length;
    console.log(`${label}: ${r.passed} passed, ${r.failed} failed${listed ? ` (${listed} expected: network)` : ''} in ${(r.ms / 1000).toFixed(1)} s`);
    for (const e of r.errors) console.log(`    ERROR ${e.split('\n').join('\n          ')}`);
    for (const o of v.unexpected) console.log(`    FAIL ${o.key}: ${o.detail}`);
    for (const k of v.fixed) console.log(`    FIXED ${k}: passes now, remove it from expectedFailures`);
    if (verbose) for (const [k, why] of Object.entries(suite.expectedFailures)) console.log(`    expected ${k}: ${why}`);
    if (v.unexpected.length || v.fixed.length || v.regressed) bad = true;
  }
  if (found === 0) {
    console.error(`no suites found under ${corpora}: pass the folder holding them with --corpora <dir> (or set REGO_CORPORA)`);
    process.exitCode = 2;
    return;
  }
  process.exitCode = bad ? 1 : 0;
}

if (require.main === module) void main();
