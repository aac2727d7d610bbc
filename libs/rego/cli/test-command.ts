/**
 * `rego test <file or dir>... [--run <regex>] [-v] [-b] [--strict] [--v0-compatible] [--capabilities <file>]`: runs every `test_*` rule like `opa test`. A test passes when
 * its rule is defined and true; undefined, any other value, or an evaluation error is a failure. A parameterized
 * test (`test_name[case] if { ... }`) is one test with a sub-result per case, as in OPA >= 1.2: a case passes
 * when its key is in the rule's object with the value true; a case that was reached (its key bound) but is not
 * there fails, and fails the test. Output: one line per failing test (`<file>:<row>: <ref>: FAIL` or `...
 * ERROR: <error>`), then its cases indented (`  <case>: PASS|FAIL`), with `-v` also the passing tests and each
 * test's print() output, then `N passed, N failed`. Exit 1 when a test failed or the modules do not compile.
 */
import { compile } from '../src';
import { parseArgs, UsageError } from './args';
import { discoverTests } from './discover-tests';
import { formatErrors } from './format-error';
import { CliIo } from './io';
import { LoadError, loadBundleDir, loadPaths } from './load-paths';
import { COMPILE_FLAGS, compileOptionsFrom, regoVersionFlag } from './compile-options';
import { fmtMs, nowMs } from './timing';
import { TEST_CASE_BUILTIN } from '../src/compiler/test-cases';
import { toJSON, Value } from '../src/value';

export async function testCommand(argv: string[], io: CliIo, cwd = process.cwd()): Promise<number> {
  const { flags, positional } = parseArgs(argv, [
    { names: ['-r', '--run'], key: 'run', takesValue: true },
    { names: ['-v', '--verbose'], key: 'verbose', takesValue: false },
    { names: ['-b', '--bundle'], key: 'bundle', takesValue: false },
    ...COMPILE_FLAGS,
  ]);
  if (positional.length === 0) throw new UsageError('test needs at least one file or directory');
  let filter: RegExp | undefined;
  if (flags.run !== undefined) {
    try {
      filter = new RegExp(flags.run as string);
    } catch (e) {
      throw new UsageError(`--run: ${(e as Error).message}`);
    }
  }
  const verbose = flags.verbose === true;

  let loaded;
  let bundle;
  const fileRegoVersions: Record<string, 0 | 1> = {};
  try {
    const copts = compileOptionsFrom(flags, cwd);
    if (flags.bundle === true) {
      // OPA's `opa test -b`: every path is a bundle folder (its .manifest honoured)
      loaded = { files: {}, data: {} };
      for (const p of positional) loadBundleDir(p, cwd, copts.regoVersion, loaded, fileRegoVersions);
    } else loaded = loadPaths(positional, cwd);
    bundle = compile(loaded.files, { ...copts, fileRegoVersions, testCases: true });
  } catch (e) {
    if (e instanceof LoadError) io.err(`error: ${e.message}\n`);
    else for (const line of formatErrors(e)) io.err(line + '\n');
    return 1;
  }

  const tests = discoverTests(loaded.files, regoVersionFlag(flags), fileRegoVersions).filter((t) => !filter || filter.test(t.ref));
  let passed = 0;
  let failed = 0;
  for (const t of tests) {
    const start = nowMs();
    let outcome: 'PASS' | 'FAIL' | 'ERROR';
    let detail = '';
    let prints: string[] = [];
    let cases: CaseResults | undefined;
    try {
      const reached: Value[][] = [];
      const builtinImpls = t.parameterized ? { [TEST_CASE_BUILTIN]: (args: Value[]) => (reached.push(args[0] as Value[]), true) } : undefined;
      const r = bundle.evalValue(t.ref, { data: loaded.data, builtinImpls });
      prints = r.prints;
      if (t.parameterized && r.value !== undefined) {
        cases = caseResults(r.value, reached);
        outcome = caseFailed(cases) ? 'FAIL' : 'PASS';
      } else outcome = r.value === true ? 'PASS' : 'FAIL';
    } catch (e) {
      outcome = 'ERROR';
      detail = formatErrors(e).join('; ');
    }
    const took = fmtMs(nowMs() - start);
    if (outcome === 'PASS') passed++;
    else failed++;
    if (outcome !== 'PASS' || verbose) {
      io.out(`${t.file}:${t.row}: ${t.ref}: ${outcome} (${took})${detail ? `: ${detail}` : ''}\n`);
      if (cases) for (const line of caseLines(cases, '  ')) io.out(line + '\n');
      // Prints explain failures, so they are shown for failing tests as opa test does, and for all with -v.
      for (const p of prints) io.out(`  ${p}\n`);
    }
  }
  io.out(`${passed} passed, ${failed} failed\n`);
  return failed > 0 ? 1 : 0;
}

/** The cases of a parameterized test by name (nested for `test_x[a][b]`), as OPA's runner builds them. */
type CaseResults = Map<string, { fail: boolean; cases: CaseResults }>;

/** A case's name: a string as it is, anything else as JSON. */
function caseName(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function caseResults(value: unknown, reached: Value[][]): CaseResults {
  const out: CaseResults = new Map();
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (v && typeof v === 'object' && !Array.isArray(v)) {
        const cases = caseResults(v, []);
        out.set(k, { fail: caseFailed(cases), cases });
      } else out.set(k, { fail: v !== true, cases: new Map() });
    }
  }
  // a case that was reached but did not make it into the object failed
  for (const path of reached) {
    let level = out;
    const names = path.map((x) => caseName(toJSON(x)));
    const trail: Array<{ fail: boolean }> = [];
    for (const name of names) {
      let entry = level.get(name);
      if (!entry) level.set(name, (entry = { fail: true, cases: new Map() }));
      trail.push(entry);
      level = entry.cases;
    }
    if (trail.length && trail[trail.length - 1].fail) for (const e of trail) e.fail = true;
  }
  return out;
}

function caseFailed(cases: CaseResults): boolean {
  for (const c of cases.values()) if (c.fail) return true;
  return false;
}

function caseLines(cases: CaseResults, indent: string): string[] {
  const lines: string[] = [];
  for (const name of [...cases.keys()].sort()) {
    const c = cases.get(name)!;
    lines.push(`${indent}${name}: ${c.fail ? 'FAIL' : 'PASS'}`);
    lines.push(...caseLines(c.cases, indent + '  '));
  }
  return lines;
}
