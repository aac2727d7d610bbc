import { EvaluationError } from '../domain/evaluation-error';
import { PolicyBundle } from '../domain/policy-bundle';

export interface EngineRequest {
  bundle: PolicyBundle;
  input: unknown;
  /** the same input as its canonical JSON text */
  inputJson: string;
  /** the bundle's data documents with `params` mounted at `data.params` */
  data: Record<string, unknown>;
  /** what `time.now_ns()` returns: the evaluation's recorded_at */
  nowNs: bigint;
  deadlineMs: number;
}

/** Where an engine's time went, for the debug log: hand-off is the rest of the round trip. */
export interface EngineTimings {
  compileMs: number;
  parseMs: number;
  evaluateMs: number;
  handOffMs: number;
}

export type EngineOutcome = { ok: true; value: unknown; timings?: EngineTimings } | { ok: false; error: EvaluationError };

/**
 * Runs a policy's `data.policy` document against an input. Never throws for a problem of the policy: it
 * answers with an error of the policy's kind; `service_error` only for its own faults.
 */
export abstract class PolicyEngine {
  abstract readonly name: string;
  abstract readonly version: string;
  abstract run(request: EngineRequest): Promise<EngineOutcome>;
  abstract close(): Promise<void>;
  /** Runs waiting for a free worker thread (0 for an engine that runs inline). */
  get queued(): number {
    return 0;
  }
}

/** The engines of this process: a bundle with a `policy.wasm` runs on the wasm engine, any other on Rego. */
export class PolicyEngines {
  constructor(
    readonly rego: PolicyEngine,
    readonly wasm: PolicyEngine,
  ) {}

  for(bundle: PolicyBundle): PolicyEngine {
    return bundle.wasm ? this.wasm : this.rego;
  }

  get queued(): number {
    return this.rego.queued + this.wasm.queued;
  }

  async close(): Promise<void> {
    await Promise.all([this.rego.close(), this.wasm.close()]);
  }
}
