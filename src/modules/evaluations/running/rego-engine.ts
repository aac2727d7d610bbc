import { RegoSandbox } from '../../../../libs/rego/src/sandbox';
import { kindOfEngineCode } from '../domain/evaluation-error';
import { EngineOutcome, EngineRequest, PolicyEngine } from './policy-engine';
import { serviceVersion } from './service-version';

/**
 * The service's own Rego engine (libs/rego) in a pool of worker threads: each evaluation has a deadline and a
 * heap cap, and a policy that loops or allocates without bound costs its worker, nothing else.
 */
export class RegoEngine extends PolicyEngine {
  readonly name = 'veritrail-rego';
  readonly version = serviceVersion();
  private pool: RegoSandbox | null = null;

  constructor(private readonly options: { threads: number; maxHeapMb: number; deadlineMs: number; niceness: number }) {
    super();
  }

  /**
   * The worker pool, started with the first evaluation: a process that never evaluates keeps no threads. Once
   * started, every thread stays: piscina ends a thread above `minThreads` as soon as it is idle, so under load
   * threads were started and stopped all the time, each loading the engine and compiling its bundles again
   * (five times the CPU per evaluation at 8 clients).
   */
  private get sandbox(): RegoSandbox {
    this.pool ??= new RegoSandbox({
      minThreads: this.options.threads,
      maxThreads: this.options.threads,
      maxOldGenerationSizeMb: this.options.maxHeapMb,
      defaultDeadlineMs: this.options.deadlineMs,
      niceness: this.options.niceness,
    });
    return this.pool;
  }

  async run(request: EngineRequest): Promise<EngineOutcome> {
    // As a bundle, so that the manifest's Rego versions are honoured; the data documents are mounted by
    // loadBundle (with the request's params) and passed as `data`.
    const files = request.bundle.manifest === null ? request.bundle.modules : { ...request.bundle.modules, '.manifest': request.bundle.manifest };
    const started = performance.now();
    const answer = await this.sandbox.evaluate({
      files,
      bundle: true,
      query: 'data.policy',
      kind: 'value',
      inputJson: request.inputJson,
      data: request.data,
      nowNs: request.nowNs,
      deadlineMs: request.deadlineMs,
    });
    if (!answer.ok) return { ok: false, error: { kind: kindOfEngineCode(answer.error.code), message: describe(answer.error) } };
    if (answer.value === undefined) {
      return { ok: false, error: { kind: 'policy_output_invalid', message: 'data.policy is undefined: the bundle needs a module with `package policy`' } };
    }
    const roundTrip = performance.now() - started;
    const timings = {
      compileMs: answer.compileMs,
      parseMs: answer.parseMs,
      evaluateMs: answer.evalMs,
      handOffMs: Math.max(0, roundTrip - answer.compileMs - answer.parseMs - answer.evalMs),
    };
    return { ok: true, value: answer.value, timings };
  }

  /** Live worker threads (0 before the first evaluation). */
  get threads(): number {
    return this.pool?.threads ?? 0;
  }

  override get queued(): number {
    return this.pool?.queued ?? 0;
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }
}

function describe(error: { code: string; message: string; location?: { file: string; row: number; col: number }; errors?: Array<{ message: string; location?: { file: string; row: number; col: number } }> }): string {
  const at = (l?: { file: string; row: number; col: number }) => (l ? `${l.file}:${l.row}:${l.col}: ` : '');
  if (error.errors?.length) return error.errors.map((e) => `${at(e.location)}${e.message}`).join('\n');
  return `${at(error.location)}${error.message}`;
}
