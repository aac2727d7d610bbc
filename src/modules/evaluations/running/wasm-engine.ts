import * as path from 'node:path';
import Piscina from 'piscina';
import { EngineOutcome, EngineRequest, PolicyEngine } from './policy-engine';
import type { WasmWorkerTask } from './wasm-worker';

/** Extra time a wasm evaluation gets past its deadline before its thread is terminated. */
const GRACE_MS = 200;

export interface WasmEngineOptions {
  threads: number;
  maxHeapMb: number;
  niceness: number;
  /** absolute path of a module exporting `load` (a WasmLoader) to use instead of the SDK (tests) */
  loaderModule?: string;
  /** the SDK's version, as recorded with each evaluation (default: the installed package's) */
  version?: string;
}

/**
 * Runs an OPA-compiled `policy.wasm` with the SDK, instead of the Rego engine, under the same contract (see
 * `evaluateWasm`), in worker threads of its own: a wasm call cannot be interrupted, so a policy that runs past
 * its deadline (a loop over the product of three large arrays finishes, but not today) has its thread
 * terminated, and the evaluation ends with `policy_timeout` while requests and other evaluations go on. Each
 * thread has the heap cap; the wasm memory's maximum is the same cap. Threads start with the first wasm
 * evaluation (most orgs never send a wasm bundle), then kept.
 */
export class WasmEngine extends PolicyEngine {
  readonly name = 'opa-wasm';
  readonly version: string;
  private pool: Piscina | null = null;

  constructor(private readonly options: WasmEngineOptions) {
    super();
    this.version = options.version ?? sdkVersion();
  }

  private get threadPool(): Piscina {
    this.pool ??= new Piscina({
      filename: path.join(__dirname, __filename.endsWith('.ts') ? 'wasm-worker-ts-shim.js' : 'wasm-worker.js'),
      // All started at once and kept, as the Rego engine's: a thread loads the SDK and the host builtins when it
      // starts, and piscina would end a thread above minThreads as soon as it is idle.
      minThreads: Math.max(1, this.options.threads),
      maxThreads: Math.max(1, this.options.threads),
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb, maxYoungGenerationSizeMb: 16 },
    });
    // A thread dying between tasks is reported as an event; without a listener it would end the process.
    this.pool.on('error', () => undefined);
    return this.pool;
  }

  async run(request: EngineRequest): Promise<EngineOutcome> {
    const task: WasmWorkerTask = {
      wasm: new Uint8Array(request.bundle.wasm!),
      input: request.input,
      data: request.data,
      nowNs: request.nowNs,
      deadlineMs: request.deadlineMs,
      maxHeapMb: this.options.maxHeapMb,
      loaderModule: this.options.loaderModule,
      niceness: this.options.niceness,
    };
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), request.deadlineMs + GRACE_MS);
    try {
      return (await this.threadPool.run(task, { signal: abort.signal })) as EngineOutcome;
    } catch (e) {
      const error = e as { code?: string; message?: string };
      if (abort.signal.aborted) {
        return { ok: false, error: { kind: 'policy_timeout', message: `evaluation exceeded its deadline of ${request.deadlineMs} ms and was stopped` } };
      }
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        return { ok: false, error: { kind: 'policy_resource_limit', message: 'evaluation exceeded the memory limit and was stopped' } };
      }
      return { ok: false, error: { kind: 'service_error', message: `wasm worker: ${error.message ?? String(e)}` } };
    } finally {
      clearTimeout(timer);
    }
  }

  override get queued(): number {
    return this.pool?.queueSize ?? 0;
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
  }
}

function sdkVersion(): string {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('@open-policy-agent/opa-wasm/package.json') as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
