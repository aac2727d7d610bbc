/**
 * `rego eval [-d <path>]... [-b <bundle dir>]... [-i input.json] [--repeat N] [--strict] [--strict-builtin-errors]
 *   [--v0-compatible] [--capabilities <file>] <query>`
 *
 * Output on stdout:
 * - a query that is a single reference (`data.policy`, `data.policy.allow`, `input.x`, `data.a["b-c"]`) prints
 *   its value as JSON; an undefined value prints nothing on stdout and `undefined` on stderr (exit 0, as
 *   `opa eval` does without `--fail`);
 * - any other query (`x := data.a[_]; x > 1`) prints the binding rows as a JSON array, one object per solution
 *   mapping each query variable to its value (`[]` when the query is undefined, `[{}]` when it is true and binds
 *   nothing). This is the `bindings` part of `opa eval --format json`, without the expressions.
 * Errors go to stderr as `<file>:<row>:<col>: <code>: <message>` and the exit code is 1 (2 for usage errors).
 */
import { compile } from '../src';
import { parseArgs, UsageError } from './args';
import { formatErrors } from './format-error';
import { CliIo } from './io';
import { jsonText } from './json-text';
import { LoadError, loadBundleDir, loadPaths, parseDocument } from './load-paths';
import { COMPILE_FLAGS, compileOptionsFrom } from './compile-options';
import { fmtMs, median, nowMs } from './timing';
import * as path from 'path';
import { isRefQuery } from '../src/sandbox/ref-query';

export async function evalCommand(argv: string[], io: CliIo, cwd = process.cwd()): Promise<number> {
  const { flags, positional } = parseArgs(argv, [
    { names: ['-d', '--data'], key: 'data', takesValue: true, repeat: true },
    { names: ['-i', '--input'], key: 'input', takesValue: true },
    { names: ['-b', '--bundle'], key: 'bundle', takesValue: true, repeat: true },
    { names: ['--repeat'], key: 'repeat', takesValue: true },
    { names: ['--strict-builtin-errors'], key: 'strictBuiltinErrors', takesValue: false },
    ...COMPILE_FLAGS,
  ]);
  if (positional.length !== 1) throw new UsageError('eval needs exactly one query');
  const query = positional[0];
  const repeat = flags.repeat === undefined ? 0 : Number(flags.repeat);
  if (!Number.isInteger(repeat) || repeat < 0) throw new UsageError('--repeat needs a non-negative integer');

  try {
    const copts = compileOptionsFrom(flags, cwd);
    const loaded = loadPaths((flags.data as string[] | undefined) ?? [], cwd);
    const fileRegoVersions: Record<string, 0 | 1> = {};
    for (const b of (flags.bundle as string[] | undefined) ?? []) loadBundleDir(b, cwd, copts.regoVersion, loaded, fileRegoVersions);
    const input = flags.input === undefined ? undefined : parseDocument(path.resolve(cwd, flags.input as string), flags.input as string);

    const t0 = nowMs();
    const bundle = compile(loaded.files, { ...copts, fileRegoVersions });
    const compileMs = nowMs() - t0;

    const opts = { input, data: loaded.data, strictBuiltinErrors: flags.strictBuiltinErrors === true };
    const ref = isRefQuery(query);
    const run = () => (ref ? bundle.evalValue(query.trim(), opts) : bundle.evaluate(query, opts));

    const times: number[] = [];
    let result = undefined as ReturnType<typeof run> | undefined;
    for (let i = 0; i < Math.max(1, repeat); i++) {
      const s = nowMs();
      result = run();
      times.push(nowMs() - s);
    }
    const r = result!;
    for (const line of r.prints) io.err(line + '\n');
    if ('value' in r || ref) {
      const value = (r as { value?: unknown }).value;
      if (value === undefined) io.err('undefined\n');
      else io.out(jsonText(value) + '\n');
    } else {
      io.out(jsonText((r as { results: unknown[] }).results) + '\n');
    }
    if (repeat > 0) {
      io.err(`compile: ${fmtMs(compileMs)} (${Object.keys(loaded.files).length} files)\n`);
      io.err(`eval: min ${fmtMs(Math.min(...times))}, median ${fmtMs(median(times))} over ${times.length} runs\n`);
    }
    return 0;
  } catch (e) {
    if (e instanceof LoadError) {
      io.err(`error: ${e.message}\n`);
      return 1;
    }
    for (const line of formatErrors(e)) io.err(line + '\n');
    return 1;
  }
}
