/**
 * JqRulesSandbox: runs rule sets (JSON Schema + jq rules) in worker threads so that a rule cannot hang or
 * crash the host. Each task has a wall-clock deadline; when it passes, the worker thread is terminated (a
 * fresh one is started for the next task) and the task answers `timeout`. Each worker has a heap cap
 * (resourceLimits); a worker that dies of it answers `resource_limit`. Plain worker_threads (no pool library),
 * so it behaves the same under jest as in the service.
 */
import * as path from 'path';
import { Worker } from 'worker_threads';
import type { AssessResult, CheckResult, RuleSet, WorkerReply, WorkerTask } from './protocol';

export interface JqRulesSandboxOptions {
  /** Worker threads at most (default 2). */
  maxThreads?: number;
  /** Deadline of a task when the call gives none (default 2000 ms). */
  defaultDeadlineMs?: number;
  /** Heap cap of each worker (V8 old generation), default 256 MB. */
  maxOldGenerationSizeMb?: number;
  /** Override the worker file (tests). */
  workerFile?: string;
}

export type SandboxFailure = { ok: false; code: 'timeout' | 'resource_limit' | 'sandbox_error'; message: string };
export type Answer<T> = { ok: true; value: T } | SandboxFailure;

/** The worker file next to this one: worker.js in dist, or a shim that loads worker.ts through ts-node. */
export function defaultWorkerFile(): string {
  return __filename.endsWith('.ts') ? path.join(__dirname, 'worker-ts-shim.js') : path.join(__dirname, 'worker.js');
}

interface Pending {
  task: WorkerTask;
  deadlineMs: number;
  resolve: (reply: Answer<CheckResult> | Answer<AssessResult>) => void;
}

interface Slot {
  worker: Worker;
  /** Loaded jq and ready for tasks: a task's deadline starts when a ready worker takes it. */
  ready: boolean;
  busy: Pending | null;
  timer: NodeJS.Timeout | null;
}

export class JqRulesSandbox {
  private readonly maxThreads: number;
  private readonly defaultDeadlineMs: number;
  private readonly resourceLimits: { maxOldGenerationSizeMb: number };
  private readonly workerFile: string;
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(opts: JqRulesSandboxOptions = {}) {
    this.maxThreads = Math.max(1, opts.maxThreads ?? 2);
    this.defaultDeadlineMs = opts.defaultDeadlineMs ?? 2000;
    this.resourceLimits = { maxOldGenerationSizeMb: opts.maxOldGenerationSizeMb ?? 256 };
    this.workerFile = opts.workerFile ?? defaultWorkerFile();
  }

  /** Compiles the schema and every rule and summary expression, without data. */
  check(set: RuleSet, deadlineMs?: number): Promise<Answer<CheckResult>> {
    return this.submit({ id: this.nextId++, kind: 'check', set }, deadlineMs) as Promise<Answer<CheckResult>>;
  }

  /** Validates `dataText` (JSON text) against the schema and runs the rules on it. */
  assess(set: RuleSet, dataText: string, deadlineMs?: number): Promise<Answer<AssessResult>> {
    return this.submit({ id: this.nextId++, kind: 'assess', set, dataText }, deadlineMs) as Promise<Answer<AssessResult>>;
  }

  /** Live worker threads (for tests). */
  get threads(): number {
    return this.slots.length;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0)) p.resolve({ ok: false, code: 'sandbox_error', message: 'the rules sandbox is closed' });
    await Promise.all(this.slots.splice(0).map((s) => this.stop(s)));
  }

  private submit(task: WorkerTask, deadlineMs = this.defaultDeadlineMs): Promise<Answer<CheckResult> | Answer<AssessResult>> {
    if (this.closed) return Promise.resolve({ ok: false, code: 'sandbox_error', message: 'the rules sandbox is closed' });
    return new Promise((resolve) => {
      this.queue.push({ task, deadlineMs, resolve });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length) {
      const slot = this.slots.find((s) => s.ready && !s.busy);
      if (!slot) {
        if (this.slots.length < this.maxThreads && !this.slots.some((s) => !s.ready)) this.spawn();
        return;
      }
      const pending = this.queue.shift()!;
      slot.busy = pending;
      slot.timer = setTimeout(() => {
        this.finish(slot, { ok: false, code: 'timeout', message: `the rules ran longer than ${pending.deadlineMs} ms and were stopped` });
        this.retire(slot);
      }, pending.deadlineMs);
      slot.worker.postMessage(pending.task);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(this.workerFile, { resourceLimits: this.resourceLimits });
    const slot: Slot = { worker, ready: false, busy: null, timer: null };
    worker.unref();
    worker.on('message', (reply: WorkerReply | { ready: true }) => {
      if ('ready' in reply) {
        slot.ready = true;
        this.dispatch();
        return;
      }
      if (!slot.busy || slot.busy.task.id !== reply.id) return;
      if (!reply.ok) this.finish(slot, { ok: false, code: 'sandbox_error', message: reply.message });
      else this.finish(slot, { ok: true, value: 'check' in reply ? reply.check : reply.assess } as Answer<CheckResult>);
      this.dispatch();
    });
    const died = (error?: Error & { code?: string }) => {
      // A worker that dies before it is ready takes the oldest waiting task with it, so a worker that cannot
      // start fails requests instead of leaving them waiting.
      if (!slot.ready && !slot.busy && this.queue.length) slot.busy = this.queue.shift()!;
      const oom = error?.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.finish(slot, {
        ok: false,
        code: oom ? 'resource_limit' : 'sandbox_error',
        message: oom ? 'the rules exceeded the memory limit and were stopped' : `the rules worker stopped: ${error?.message ?? 'exited'}`,
      });
      this.retire(slot);
    };
    worker.on('error', died);
    worker.on('exit', () => died());
    this.slots.push(slot);
    return slot;
  }

  private finish(slot: Slot, answer: Answer<CheckResult> | Answer<AssessResult>): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    const pending = slot.busy;
    slot.busy = null;
    pending?.resolve(answer);
  }

  /** Drops a worker that timed out or died; the queue goes on with a fresh one. */
  private retire(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    this.slots.splice(i, 1);
    void this.stop(slot);
    this.dispatch();
  }

  private async stop(slot: Slot): Promise<void> {
    slot.worker.removeAllListeners();
    slot.worker.on('error', () => undefined);
    await slot.worker.terminate().catch(() => undefined);
  }
}
