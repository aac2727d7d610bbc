/**
 * Public API of the Rego engine: compile(files) -> Bundle; bundle.evaluate(query, opts) / bundle.evalValue(ref).
 * Values follow the value model in value.ts: JSON input and data are used as they are.
 */
import { createHash } from 'crypto';
import { compileModules } from './compiler/compile';
import type { CompiledPolicy } from './compiler/policy';
import type { CompiledQuery, CompileOptions } from './compiler/types';
import { EvalOptions, Evaluator } from './eval/evaluator';
import { RegoError, RegoErrors, isJsResourceError } from './errors';
import { capabilitiesKey } from './builtins/capabilities';
import { BundleManifest, bundlePath, readBundle } from './bundle';
import type { Value } from './value';
import { toJSON } from './value';

export { RegoError, RegoErrors } from './errors';
export type { Location } from './errors';
export type { CompileOptions } from './compiler/types';
export type { EvalOptions } from './eval/evaluator';
export type { BuiltinDecl, BuiltinImpl, BuiltinContext, TypeSig } from './builtins/contract';
export { parseCapabilities } from './builtins/capabilities';
export type { Capabilities, CapabilityBuiltin } from './builtins/capabilities';
export { parseModule, parseQuery, parseTerm } from './parser/parser';
export type { ParseOptions, RegoVersion } from './parser/parser';
export { readBundle, mountDocument } from './bundle';
export type { BundleManifest, ReadBundle } from './bundle';
// For a host of OPA's wasm: the builtins a compiled policy leaves to it. (The worker-thread sandbox has its own
// door, ./sandbox, so that a process running policies in workers never loads the engine in its own thread.)
export { hostBuiltins } from './host-builtins';

export interface EvaluateOptions {
  input?: unknown;
  data?: unknown;
  nowNs?: bigint;
  deadlineMs?: number;
  maxSteps?: number;
  strictBuiltinErrors?: boolean;
  builtinImpls?: EvalOptions['builtinImpls'];
}

export interface EvaluateResult {
  results: Array<Record<string, unknown>>;
  prints: string[];
}

export class Bundle {
  readonly digest: string;
  private readonly queries = new Map<string, CompiledQuery>();

  constructor(
    readonly policy: CompiledPolicy,
    digest: string,
    /** Data documents the bundle carries (compileBundle); an evaluation's `data` replaces its top-level keys. */
    readonly data?: Record<string, unknown>,
    /** The bundle's `.manifest`, when it had one. */
    readonly manifest?: BundleManifest,
  ) {
    this.digest = digest;
  }

  /** Compiled query, cached per bundle (queries are compiled against this bundle's functions). */
  prepare(query: string): CompiledQuery {
    let q = this.queries.get(query);
    if (!q) {
      q = this.policy.compileQuery(query);
      if (this.queries.size > 1000) this.queries.clear();
      this.queries.set(query, q);
    }
    return q;
  }

  evaluate(query: string, opts: EvaluateOptions = {}): EvaluateResult {
    const q = guard(() => this.prepare(query), 'rego_compile_error');
    const ev = new Evaluator(this.policy, evalOpts(opts, this.data));
    const results = guard(() => ev.query(q));
    return { results, prints: ev.prints };
  }

  /** Like evaluate but rows hold Rego values (sets stay RegoSet). */
  evaluateValues(query: string, opts: EvaluateOptions = {}): { results: Array<Record<string, Value>>; prints: string[] } {
    const q = guard(() => this.prepare(query), 'rego_compile_error');
    const ev = new Evaluator(this.policy, evalOpts(opts, this.data));
    return { results: guard(() => ev.queryValues(q)), prints: ev.prints };
  }

  /** Value of a ref such as `data.policy.allow` (undefined when the document is undefined). */
  evalValue(ref: string, opts: EvaluateOptions = {}): { value: unknown | undefined; prints: string[] } {
    const r = this.evaluateValues(`__value__ = ${ref}`, opts);
    const row = r.results[0];
    return { value: row ? toJSON(row.__value__) : undefined, prints: r.prints };
  }
}

/**
 * Deep recursion (e.g. mutually recursive mocks via `with`) becomes a coded error instead of a crash; any other
 * unexpected exception (an engine bug) is reported as a coded error too, so callers always get a RegoError.
 */
function guard<T>(f: () => T, code = 'eval_builtin_error'): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof RegoError) throw e;
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      throw new RegoError('policy_resource_limit', 'evaluation exceeded the maximum recursion depth');
    }
    if (isJsResourceError(e)) throw new RegoError('policy_resource_limit', `evaluation exhausted resources: ${e.message}`);
    const err = new RegoError(code, `internal error: ${(e as Error)?.message ?? String(e)}`);
    (err as { cause?: unknown }).cause = e;
    throw err;
  }
}

function evalOpts(o: EvaluateOptions, own?: Record<string, unknown>): EvalOptions {
  let data = o.data ?? own ?? {};
  if (own && o.data !== undefined && typeof o.data === 'object' && o.data !== null && !Array.isArray(o.data)) {
    data = { ...own, ...(o.data as Record<string, unknown>) };
  }
  return {
    input: o.input as Value | undefined,
    data: data as Value,
    nowNs: o.nowNs,
    deadlineMs: o.deadlineMs,
    maxSteps: o.maxSteps,
    strictBuiltinErrors: o.strictBuiltinErrors,
    builtinImpls: o.builtinImpls,
  };
}

export function bundleDigest(files: Record<string, string>, opts: CompileOptions = {}): string {
  const h = createHash('sha256');
  for (const name of Object.keys(files).sort()) {
    h.update(name).update('\u0000').update(files[name]).update('\u0000');
  }
  for (const b of (opts.builtins ?? []).map((x) => x.name).sort()) h.update('builtin:' + b + '\u0000');
  if (opts.strict) h.update('strict');
  if (opts.capabilities) h.update('capabilities:' + capabilitiesKey(opts.capabilities) + '\u0000');
  if (opts.regoVersion === 0) h.update('rego_version:0');
  for (const [f, v] of Object.entries(opts.fileRegoVersions ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    h.update(`file_rego_version:${f}\u0000${v}\u0000`);
  }
  return h.digest('hex');
}

/** Compiles a set of Rego files (name -> source). Throws RegoError / RegoErrors. */
export function compile(files: Record<string, string>, opts: CompileOptions = {}): Bundle {
  const policy = guard(() => compileModules(files, opts), 'rego_compile_error');
  return new Bundle(policy, bundleDigest(files, opts));
}

/**
 * Compiles an OPA bundle given as its files (path in the bundle -> text): `.rego` modules, `data.json` /
 * `data.yaml` documents mounted at their folder's path, and an optional `.manifest` whose `rego_version`,
 * `file_rego_versions` and `roots` are honoured (see bundle.ts). `opts.regoVersion` is the version of modules the
 * manifest says nothing about (default 1). The result carries the bundle's data: `evaluate` uses it unless the
 * evaluation passes `data` (whose top-level keys then replace the bundle's). Throws RegoError / RegoErrors.
 */
export function compileBundle(files: Record<string, string>, opts: CompileOptions = {}): Bundle {
  const read = guard(() => readBundle(files, { regoVersion: opts.regoVersion }), 'rego_compile_error');
  const copts: CompileOptions = { ...opts, fileRegoVersions: { ...read.regoVersions, ...(opts.fileRegoVersions ?? {}) } };
  const policy = guard(() => compileModules(read.modules, copts), 'rego_compile_error');
  const all: Record<string, string> = {};
  for (const [k, v] of Object.entries(files)) all[bundlePath(k)] = v;
  return new Bundle(policy, bundleDigest(all, copts), read.data, read.manifest);
}

export function isRegoError(e: unknown): e is RegoError {
  return e instanceof RegoError || e instanceof RegoErrors;
}
