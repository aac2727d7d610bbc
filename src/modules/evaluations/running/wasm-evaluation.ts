import type { EngineOutcome } from './policy-engine';

/** What the engine needs of a loaded OPA wasm policy (the SDK's LoadedPolicy). */
export interface WasmPolicy {
  setData(data: object): void;
  evaluate(input: unknown, entrypoint?: number | string): Array<{ result: unknown }> | undefined;
  entrypoints?: Record<string, number>;
}

export type WasmLoader = (wasm: Uint8Array, memory: { initial: number; maximum: number }, builtins: Record<string, (...args: unknown[]) => unknown>) => Promise<WasmPolicy>;

/** One wasm evaluation, as the host hands it to a worker thread. */
export interface WasmTask {
  wasm: Uint8Array;
  input: unknown;
  data: Record<string, unknown>;
  nowNs: bigint;
  deadlineMs: number;
  maxHeapMb: number;
}

const WASM_PAGE_BYTES = 64 * 1024;

/**
 * Runs an OPA-compiled `policy.wasm` under the Rego engine's contract: the `policy` entrypoint's document is the
 * result, `time.now_ns()` is recorded_at, errors are classified by kind. The builtins OPA's wasm leaves to its
 * host are given by the caller (libs/rego's, in the worker). Memory is capped by the wasm memory's maximum
 * (the heap limit); time is the host's to enforce, since a wasm call cannot be interrupted from inside its thread:
 * this only marks an evaluation that finished past its deadline.
 */
export async function evaluateWasm(task: WasmTask, load: WasmLoader, builtins: Record<string, (...args: unknown[]) => unknown>): Promise<EngineOutcome> {
  const started = Date.now();
  let policy: WasmPolicy;
  try {
    const maximum = Math.max(2, Math.floor((task.maxHeapMb * 1024 * 1024) / WASM_PAGE_BYTES));
    policy = await load(task.wasm, { initial: Math.min(5, maximum), maximum }, builtins);
  } catch (error) {
    return { ok: false, error: { kind: 'policy_compile_error', message: `policy.wasm: ${(error as Error).message}` } };
  }
  let results: Array<{ result: unknown }> | undefined;
  try {
    policy.setData(task.data);
    const entrypoint = policy.entrypoints && 'policy' in policy.entrypoints ? 'policy' : undefined;
    if (policy.entrypoints && entrypoint === undefined) {
      return { ok: false, error: { kind: 'policy_output_invalid', message: 'policy.wasm has no `policy` entrypoint (compile it with -e policy)' } };
    }
    results = policy.evaluate(task.input, entrypoint);
  } catch (error) {
    const message = (error as Error)?.message ?? String(error);
    const kind = /memory|out of bounds|allocation/i.test(message) ? 'policy_resource_limit' : 'policy_runtime_error';
    return { ok: false, error: { kind, message } };
  }
  if (Date.now() - started > task.deadlineMs) {
    return { ok: false, error: { kind: 'policy_timeout', message: `evaluation took longer than ${task.deadlineMs} ms` } };
  }
  const value = results?.[0]?.result;
  if (value === undefined) return { ok: false, error: { kind: 'policy_output_invalid', message: 'data.policy is undefined' } };
  return { ok: true, value };
}
