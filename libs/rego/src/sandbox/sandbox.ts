/**
 * RegoSandbox: evaluates policies in a pool of worker threads (piscina) so that a policy cannot hang or crash the
 * host. Each request has a wall-clock deadline: the engine is told the remaining time and stops by itself with
 * policy_timeout; if it does not stop within a grace period the host aborts the task, which terminates the
 * worker thread (piscina starts a fresh one). Each worker has a heap cap (resourceLimits); a worker that dies of
 * out-of-memory is replaced by piscina and the request gets policy_resource_limit.
 */
import * as path from 'path';
import Piscina from 'piscina';
import { bundleDigest } from './digest';
import { SandboxRequest, SandboxResult, WorkerMissing, WorkerTask } from './protocol';

/**
 * A worker's young generation, in MB, unless the options say otherwise. When a worker reaches its heap cap, Node
 * gives it 16 MB more and asks it to stop; a policy that allocates faster than that (a comprehension of millions of
 * elements) overran it on Node 24, where V8 sizes young generations larger, and V8 aborted the process: the
 * policy of libs/rego's sandbox spec that exhausts memory took the whole process down in 6 runs of 6 on Node
 * 24.21, and was stopped alone in 15 of 15 with 16 MB (and always on Node 20).
 */
const YOUNG_GENERATION_MB = 16;

export interface SandboxOptions {
  /** Worker threads (default: 1..available cores). */
  minThreads?: number;
  maxThreads?: number;
  /** Heap cap of each worker (V8 old generation), default 256 MB. */
  maxOldGenerationSizeMb?: number;
  /**
   * Young generation cap of each worker, default YOUNG_GENERATION_MB. Without one, a policy that allocates fast
   * can outgrow the room V8 gives a worker past its heap cap before the worker is stopped, and V8 then aborts the
   * whole process instead of the worker (Node 24, whose young generation is larger: see YOUNG_GENERATION_MB).
   */
  maxYoungGenerationSizeMb?: number;
  /** Deadline when a request gives none, default 5000 ms. */
  defaultDeadlineMs?: number;
  /** Extra time the engine gets to stop by itself before its worker is terminated, default 200 ms. */
  graceMs?: number;
  /** Compiled bundles kept per worker, default 32. */
  cacheSize?: number;
  /** Data documents kept per worker for requests that give a dataKey, default 4. */
  dataCacheSize?: number;
  /** Step budget when a request gives none (default: none). */
  defaultMaxSteps?: number;
  /**
   * OS scheduling niceness of the worker threads, 0 to 19 (default 0: as the host). Above 0, a policy that
   * loops until its deadline takes CPU time from the host's own threads (HTTP, database client) only when
   * they leave some: on Linux a thread has its own niceness, so the host keeps its priority.
   */
  niceness?: number;
  /** Milliseconds an idle worker is kept (default: piscina's). */
  idleTimeout?: number;
  /**
   * Absolute path of a CommonJS module exporting `builtins: BuiltinDecl[]` (custom builtins, with their
   * implementations): functions cannot be posted to a thread, so each worker loads them from this module.
   */
  builtinsModule?: string;
  /** Override the worker file (tests). */
  workerFile?: string;
}

/** The worker file next to this one: worker.js in dist, or a shim that loads worker.ts through ts-node. */
export function defaultWorkerFile(): string {
  return __filename.endsWith('.ts') ? path.join(__dirname, 'worker-ts-shim.js') : path.join(__dirname, 'worker.js');
}

export class RegoSandbox {
  private readonly pool: Piscina;
  private readonly defaultDeadlineMs: number;
  private readonly graceMs: number;
  private readonly cacheSize: number;
  private readonly dataCacheSize: number;
  private readonly defaultMaxSteps?: number;
  private readonly builtinsModule?: string;
  private readonly niceness: number;
  /** Worker crashes with no task attached (piscina emits them as events); kept for diagnostics. */
  readonly crashes: Error[] = [];

  constructor(opts: SandboxOptions = {}) {
    this.defaultDeadlineMs = opts.defaultDeadlineMs ?? 5000;
    this.graceMs = opts.graceMs ?? 200;
    this.cacheSize = opts.cacheSize ?? 32;
    this.dataCacheSize = opts.dataCacheSize ?? 4;
    this.defaultMaxSteps = opts.defaultMaxSteps;
    this.builtinsModule = opts.builtinsModule;
    this.niceness = opts.niceness ?? 0;
    if (!Number.isInteger(this.niceness) || this.niceness < 0 || this.niceness > 19) throw new RangeError('niceness must be a whole number from 0 to 19');
    const resourceLimits: Record<string, number> = {
      maxOldGenerationSizeMb: opts.maxOldGenerationSizeMb ?? 256,
      maxYoungGenerationSizeMb: opts.maxYoungGenerationSizeMb ?? YOUNG_GENERATION_MB,
    };
    // Piscina spreads options over its defaults, so an explicit undefined would erase a default: omit them.
    const poolOpts: Record<string, unknown> = { filename: opts.workerFile ?? defaultWorkerFile(), resourceLimits };
    if (opts.minThreads !== undefined) poolOpts.minThreads = opts.minThreads;
    if (opts.maxThreads !== undefined) poolOpts.maxThreads = opts.maxThreads;
    if (opts.idleTimeout !== undefined) poolOpts.idleTimeout = opts.idleTimeout;
    this.pool = new Piscina(poolOpts);
    // Without a listener an 'error' event (a worker dying between tasks) would crash the host process.
    this.pool.on('error', (e: Error) => {
      this.crashes.push(e);
      if (this.crashes.length > 100) this.crashes.shift();
    });
  }

  /** Never rejects for policy problems: they come back as `{ ok: false, error: { code, message, location } }`. */
  async evaluate(req: SandboxRequest): Promise<SandboxResult> {
    const deadlineMs = req.deadlineMs ?? this.defaultDeadlineMs;
    const { deadlineMs: _omit, files, data, ...rest } = req;
    const task: WorkerTask = {
      ...rest,
      maxSteps: req.maxSteps ?? this.defaultMaxSteps,
      // The builtins module changes what the files compile to, so it is part of the cache key.
      digest: bundleDigest(files, req.strict === true, { bundle: req.bundle, regoVersion: req.regoVersion }) + (this.builtinsModule ? `+${this.builtinsModule}` : ''),
      hasData: req.dataKey === undefined,
      data: req.dataKey === undefined ? data : undefined,
      deadlineAt: Date.now() + deadlineMs,
      cacheSize: this.cacheSize,
      builtinsModule: this.builtinsModule,
      dataCacheSize: this.dataCacheSize,
      niceness: this.niceness,
    };
    const abort = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, deadlineMs + this.graceMs);
    try {
      // First without the bundle: a worker that compiled it before answers from its cache.
      let reply = (await this.pool.run(task, { signal: abort.signal })) as SandboxResult | WorkerMissing;
      if ('missing' in reply) {
        reply = (await this.pool.run({ ...task, files, data, hasData: true }, { signal: abort.signal })) as SandboxResult | WorkerMissing;
      }
      if ('missing' in reply) return { ok: false, error: { code: 'sandbox_error', message: 'internal error: worker lost its bundle' } };
      return reply;
    } catch (e) {
      const err = e as { code?: string; name?: string; message?: string };
      if (timedOut || err.name === 'AbortError') {
        return { ok: false, error: { code: 'policy_timeout', message: `evaluation exceeded its deadline of ${deadlineMs} ms and was stopped` } };
      }
      if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        return { ok: false, error: { code: 'policy_resource_limit', message: 'evaluation exceeded the memory limit and was stopped' } };
      }
      if (/call stack|Invalid (array|string) length/i.test(err.message ?? '')) {
        return { ok: false, error: { code: 'policy_resource_limit', message: `evaluation exhausted resources: ${err.message}` } };
      }
      if (/worker exited/i.test(err.message ?? '')) {
        return { ok: false, error: { code: 'policy_resource_limit', message: `evaluation worker died: ${err.message}` } };
      }
      return { ok: false, error: { code: 'sandbox_error', message: `internal error: ${err.message ?? String(e)}` } };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Live worker threads (for tests and health checks). */
  get threads(): number {
    return this.pool.threads.length;
  }

  /** Evaluations waiting for a free worker thread. */
  get queued(): number {
    return this.pool.queueSize;
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
