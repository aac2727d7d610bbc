import { EngineOutcome, EngineRequest, PolicyEngine } from './policy-engine';

/** What the engine needs of a loaded OPA wasm policy (the SDK's LoadedPolicy). */
export interface WasmPolicy {
  setData(data: object): void;
  evaluate(input: unknown, entrypoint?: number | string): Array<{ result: unknown }> | undefined;
  entrypoints?: Record<string, number>;
}

export type WasmLoader = (wasm: Buffer, memory: { initial: number; maximum: number }, builtins: Record<string, (...args: unknown[]) => unknown>) => Promise<WasmPolicy>;

/** The SDK's loader (`@open-policy-agent/opa-wasm`). */
export const opaWasmLoader: WasmLoader = async (wasm, memory, builtins) => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk = require('@open-policy-agent/opa-wasm') as { loadPolicy: (w: Uint8Array, m: object, b: object) => Promise<WasmPolicy> };
  return sdk.loadPolicy(new Uint8Array(wasm), memory, builtins);
};

const WASM_PAGE_BYTES = 64 * 1024;

/**
 * Runs an OPA-compiled `policy.wasm` with the SDK, instead of the Rego engine, under the same contract: the
 * `policy` entrypoint's document is the result, `time.now_ns()` is recorded_at, errors are classified by kind.
 * The builtins OPA's wasm leaves to its host come from libs/rego (same implementations as the Rego engine).
 * Memory is capped by the wasm memory's maximum (EVALUATION_MAX_HEAP_MB); a wasm evaluation runs to its end
 * in this process (the SDK cannot be interrupted), so its deadline is checked when it returns.
 */
export class WasmEngine extends PolicyEngine {
  readonly name = 'opa-wasm';
  readonly version: string;

  constructor(
    private readonly options: { maxHeapMb: number },
    private readonly load: WasmLoader = opaWasmLoader,
    version = sdkVersion(),
  ) {
    super();
    this.version = version;
  }

  async run(request: EngineRequest): Promise<EngineOutcome> {
    const started = Date.now();
    let policy: WasmPolicy;
    try {
      const maximum = Math.max(2, Math.floor((this.options.maxHeapMb * 1024 * 1024) / WASM_PAGE_BYTES));
      policy = await this.load(request.bundle.wasm!, { initial: Math.min(5, maximum), maximum }, hostBuiltins(request.nowNs));
    } catch (error) {
      return { ok: false, error: { kind: 'policy_compile_error', message: `policy.wasm: ${(error as Error).message}` } };
    }
    let results: Array<{ result: unknown }> | undefined;
    try {
      policy.setData(request.data);
      const entrypoint = policy.entrypoints && 'policy' in policy.entrypoints ? 'policy' : undefined;
      if (policy.entrypoints && entrypoint === undefined) {
        return { ok: false, error: { kind: 'policy_output_invalid', message: 'policy.wasm has no `policy` entrypoint (compile it with -e policy)' } };
      }
      results = policy.evaluate(request.input, entrypoint);
    } catch (error) {
      const message = (error as Error)?.message ?? String(error);
      const kind = /memory|out of bounds|allocation/i.test(message) ? 'policy_resource_limit' : 'policy_runtime_error';
      return { ok: false, error: { kind, message } };
    }
    if (Date.now() - started > request.deadlineMs) {
      return { ok: false, error: { kind: 'policy_timeout', message: `evaluation took longer than ${request.deadlineMs} ms` } };
    }
    const value = results?.[0]?.result;
    if (value === undefined) return { ok: false, error: { kind: 'policy_output_invalid', message: 'data.policy is undefined' } };
    return { ok: true, value };
  }

  async close(): Promise<void> {}
}

/** Every builtin libs/rego implements, for the wasm host: JSON values in and out, now_ns fixed. */
function hostBuiltins(nowNs: bigint): Record<string, (...args: unknown[]) => unknown> {
  // Loaded on the first wasm evaluation: the engine's builtins are not in the memory of a process that needs none.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('../../../../libs/rego/src') as typeof import('../../../../libs/rego/src')).hostBuiltins(nowNs);
}

function sdkVersion(): string {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('@open-policy-agent/opa-wasm/package.json') as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
