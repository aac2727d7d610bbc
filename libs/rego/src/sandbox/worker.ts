/**
 * The sandbox worker: compiles (or reuses from its digest cache) and evaluates one request. It never throws for
 * policy problems; errors come back as data so their code and location survive the thread boundary. Runs inside
 * a piscina worker thread with a heap cap; the host terminates it when the deadline passes.
 */
import * as os from 'os';
import { compile, compileBundle } from '../index';
import type { BuiltinDecl } from '../index';
import { LruCache } from './bundle-cache';
import { toErrorInfo } from './error-info';
import { SandboxErrorInfo, SandboxResult, WorkerMissing, WorkerTask } from './protocol';
import { isRefQuery } from './ref-query';

type Compiled = { bundle: ReturnType<typeof compile> } | { error: SandboxErrorInfo };

let cache: LruCache<Compiled> | undefined;
let dataCache: LruCache<{ data: unknown }> | undefined;
let customBuiltins: { module: string; decls: BuiltinDecl[] } | undefined;
let niced = false;

/** Lowers this thread's priority once (Linux: niceness is per thread; elsewhere it may be the process's). */
function applyNiceness(niceness: number): void {
  if (niced || niceness === 0) return;
  niced = true;
  try {
    os.setPriority(niceness);
  } catch {
    // not permitted or not supported here: evaluate at the usual priority
  }
}

/** The embedder's custom builtins, loaded once per worker (the pool always passes the same module). */
function builtinsFrom(module: string | undefined): BuiltinDecl[] | undefined {
  if (!module) return undefined;
  if (customBuiltins?.module !== module) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const loaded = require(module) as { builtins?: BuiltinDecl[] };
    customBuiltins = { module, decls: loaded.builtins ?? [] };
  }
  return customBuiltins.decls;
}

function ms(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

export default function evaluateTask(task: WorkerTask): SandboxResult | WorkerMissing {
  applyNiceness(task.niceness ?? 0);
  if (!cache) cache = new LruCache<Compiled>(task.cacheSize);
  if (!dataCache) dataCache = new LruCache<{ data: unknown }>(task.dataCacheSize);
  try {
    const digest = task.digest;
    let compiled = cache.get(digest);
    const cached = compiled !== undefined;
    let compileMs = 0;
    let data = task.data;
    if (task.dataKey !== undefined) {
      if (task.hasData) dataCache.set(task.dataKey, { data });
      else {
        const hit = dataCache.get(task.dataKey);
        if (!hit) return { missing: true };
        data = hit.data;
      }
    }
    if (!compiled) {
      if (!task.files) return { missing: true };
      const t0 = ms();
      try {
        const copts = { strict: task.strict === true, builtins: builtinsFrom(task.builtinsModule), regoVersion: task.regoVersion };
        compiled = { bundle: task.bundle ? compileBundle(task.files, copts) : compile(task.files, copts) };
      } catch (e) {
        const error = toErrorInfo(e);
        // Only deterministic compile errors are worth remembering; a resource failure may not repeat.
        if (error.code.startsWith('rego_')) cache.set(digest, { error });
        return { ok: false, error };
      }
      compileMs = ms() - t0;
      cache.set(digest, compiled);
    }
    if ('error' in compiled) return { ok: false, error: compiled.error };

    const remaining = task.deadlineAt - Date.now();
    if (remaining <= 0) return { ok: false, error: { code: 'policy_timeout', message: 'deadline passed before evaluation started' } };
    const t0 = ms();
    const input = task.inputJson !== undefined ? JSON.parse(task.inputJson) : task.input;
    const parseMs = task.inputJson !== undefined ? ms() - t0 : 0;
    const opts = {
      input,
      // without request data, a bundle's own documents apply (Bundle.evaluate); with it, its top-level keys win
      data,
      nowNs: task.nowNs,
      deadlineMs: remaining,
      maxSteps: task.maxSteps,
      strictBuiltinErrors: task.strictBuiltinErrors === true,
    };
    const asValue = task.kind ? task.kind === 'value' : isRefQuery(task.query);
    const t1 = ms();
    if (asValue) {
      const r = compiled.bundle.evalValue(task.query.trim(), opts);
      return { ok: true, value: r.value, prints: r.prints, cached, compileMs, parseMs, evalMs: ms() - t1, digest };
    }
    const r = compiled.bundle.evaluate(task.query, opts);
    return { ok: true, results: r.results, prints: r.prints, cached, compileMs, parseMs, evalMs: ms() - t1, digest };
  } catch (e) {
    return { ok: false, error: toErrorInfo(e) };
  }
}
