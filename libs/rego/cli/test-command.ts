/**
 * `rego test <file or dir>... [--run <regex>] [-v] [-b] [--strict] [--v0-compatible] [--capabilities <file>]`: runs every `test_*` rule like `opa test`. A test passes when
 * its rule is defined and true; undefined, any other value, or an evaluation error is a failure. Output: one line
 * per failing test (`<file>:<row>: <ref>: FAIL` or `... ERROR: <error>`), with `-v` also the passing ones and
 * each test's print() output, then `N passed, N failed`. Exit 1 when a test failed or the modules do not compile.
 */
import { compile } from '../src';
import { parseArgs, UsageError } from './args';
import { discoverTests } from './discover-tests';
import { formatErrors } from './format-error';
import { CliIo } from './io';
import { LoadError, loadBundleDir, loadPaths } from './load-paths';
import { COMPILE_FLAGS, compileOptionsFrom, regoVersionFlag } from './compile-options';
import { fmtMs, nowMs } from './timing';

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
    bundle = compile(loaded.files, { ...copts, fileRegoVersions });
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
    try {
      const r = bundle.evalValue(t.ref, { data: loaded.data });
      prints = r.prints;
      outcome = r.value === true ? 'PASS' : 'FAIL';
    } catch (e) {
      outcome = 'ERROR';
      detail = formatErrors(e).join('; ');
    }
    const took = fmtMs(nowMs() - start);
    if (outcome === 'PASS') passed++;
    else failed++;
    if (outcome !== 'PASS' || verbose) {
      io.out(`${t.file}:${t.row}: ${t.ref}: ${outcome} (${took})${detail ? `: ${detail}` : ''}\n`);
      // Prints explain failures, so they are shown for failing tests as opa test does, and for all with -v.
      for (const p of prints) io.out(`  ${p}\n`);
    }
  }
  io.out(`${passed} passed, ${failed} failed\n`);
  return failed > 0 ? 1 : 0;
}
