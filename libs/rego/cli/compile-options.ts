/**
 * Flags shared by `eval` and `test` that shape the compile: `--strict`, `--v0-compatible` (modules are Rego v0
 * unless a bundle manifest says otherwise), `--capabilities <file>` (OPA's capabilities JSON: the builtins
 * available, custom ones included) and `--builtins <module>` (a JavaScript module exporting `builtins`, an array
 * of BuiltinDecl with `impl`: implementations of custom builtins, as the sandbox's builtins module).
 */
import * as fs from 'fs';
import * as path from 'path';
import { BuiltinDecl, CompileOptions, parseCapabilities } from '../src';
import type { FlagSpec, ParsedArgs } from './args';
import { LoadError } from './load-paths';

export const COMPILE_FLAGS: FlagSpec[] = [
  { names: ['--strict'], key: 'strict', takesValue: false },
  { names: ['--v0-compatible'], key: 'v0', takesValue: false },
  { names: ['--capabilities'], key: 'capabilities', takesValue: true },
  { names: ['--builtins'], key: 'builtins', takesValue: true, repeat: true },
];

export function regoVersionFlag(flags: ParsedArgs['flags']): 0 | 1 {
  return flags.v0 === true ? 0 : 1;
}

/** Compile options from the shared flags; a capabilities file that cannot be read or is malformed is a LoadError. */
export function compileOptionsFrom(flags: ParsedArgs['flags'], cwd: string): CompileOptions {
  const opts: CompileOptions = { strict: flags.strict === true, regoVersion: regoVersionFlag(flags) };
  if (typeof flags.capabilities === 'string') {
    const file = path.resolve(cwd, flags.capabilities);
    let doc: unknown;
    try {
      doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (e) {
      throw new LoadError(`${flags.capabilities}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
    }
    try {
      opts.capabilities = parseCapabilities(doc, flags.capabilities);
    } catch (e) {
      throw new LoadError((e as Error).message.replace(/^rego_compile_error: /, ''));
    }
  }
  for (const mod of (flags.builtins as string[] | undefined) ?? []) {
    let loaded: { builtins?: unknown };
    try {
      loaded = require(path.resolve(cwd, mod)) as { builtins?: unknown };
    } catch (e) {
      throw new LoadError(`${mod}: ${(e as Error).message.split('\n')[0]}`);
    }
    if (!Array.isArray(loaded.builtins)) throw new LoadError(`${mod}: must export \`builtins\`, an array of builtin declarations`);
    opts.builtins = [...(opts.builtins ?? []), ...(loaded.builtins as BuiltinDecl[])];
  }
  return opts;
}
