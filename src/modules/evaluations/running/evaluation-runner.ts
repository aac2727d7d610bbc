import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../../common/config/app-config';
import { AppError } from '../../../common/errors/app-error';
import { isDatabaseUnavailable } from '../../../common/errors/database-errors';
import { JsonLogger } from '../../../common/logging/json-logger';
import { Metrics } from '../../../common/metrics/metrics';
import { UnitOfWork } from '../../../database/unit-of-work';
import { JobQueue } from '../../../jobs/job-queue';
import { DecisionRecorder, decisionOutputProblem } from '../../attestations/attestations.module';
import { TrailPolicyInput } from '../../trails/trails.module';
import { TOO_DEEP, unstorableText } from '../../../common/validation/storable-text';
import { documentDigest, sha256Hex } from '../domain/canonical-json';
import { EvaluationError, PolicyBundleError } from '../domain/evaluation-error';
import { loadBundle, PolicyBundle } from '../domain/policy-bundle';
import { EvaluationPolicyRepository } from '../persistence/evaluation-policy.repository';
import { trailMomentRefs } from '../dto/evaluation.response';
import { EvaluationRepository, EvaluationRow } from '../persistence/evaluation.repository';
import { canonicalInput, inputDocument, nanosecondsOf } from './evaluation-input';
import { PolicyEngines } from './policy-engine';
import { DecisionSigner } from '../signing/decision-signer';

export const EVALUATION_QUEUE = 'evaluations';

/**
 * How long a runner holds an evaluation before another may take it over: twice the engine's deadline (queueing
 * in the worker pool counts against it) and 5 s to read the input and record the outcome.
 */
export function leaseMsOf(config: AppConfig): number {
  return 2 * config.evaluations.deadlineMs + 5_000;
}

/** What a run found: the input it used and the engine's answer, before anything is recorded. */
export interface RunOutcome {
  /** the engine that ran it (none when the bundle did not load) */
  engine?: { engine: string; engineVersion: string };
  inputDigest: string | null;
  result?: unknown;
  resultDigest?: string;
  error?: EvaluationError;
  /** where the run's time went (debug log only) */
  timings?: Record<string, number>;
  /** the policy's per-file digests (a decision's provenance), from the bundle the run loaded */
  policyFileDigests?: Record<string, string>;
  /** the input document the policy saw (its trail elements are the signed statement's subjects) */
  input?: Record<string, unknown>;
}

/** What the process that accepted an evaluation already has: its input, its files and their digests. */
export interface PreparedRun {
  input: Record<string, unknown>;
  files: Record<string, string>;
  digests: { fileDigests: Record<string, string>; digest: string };
}

/**
 * Runs evaluations: the process that accepts one runs it at once; the job sent with it is the recovery path
 * (a process killed mid-run leaves it to the job, after its lease runs out). A run claims the evaluation
 * (lease), builds the input from the stored trail moments (unless the request already built it), runs the
 * stored bundle and records the outcome; recording only succeeds while the evaluation is still pending, so
 * however many runners try, exactly one outcome (and one decision attestation) is recorded.
 */
@Injectable()
export class EvaluationRunner implements OnApplicationShutdown {
  /** Runs in progress (a metric), which shutdown lets record their outcome before the worker threads go. */
  private readonly runs = new Set<Promise<boolean>>();

  constructor(
    private readonly evaluations: EvaluationRepository,
    private readonly policies: EvaluationPolicyRepository,
    private readonly policyInput: TrailPolicyInput,
    private readonly decisions: DecisionRecorder,
    private readonly uow: UnitOfWork,
    private readonly jobs: JobQueue,
    private readonly engines: PolicyEngines,
    private readonly logger: JsonLogger,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
    private readonly signer: DecisionSigner,
  ) {
    metrics.watchEvaluations(() => ({ waiting: this.engines.queued, running: this.runs.size }));
  }

  /**
   * Runs a pending evaluation if no one else holds it. Resolves to true when this call recorded its outcome,
   * false when it was already done or held by another runner. Throws only for faults that leave it pending
   * (the database went away): the job tries again later.
   */
  async run(orgId: string, id: string): Promise<boolean> {
    const row = await this.evaluations.claim(orgId, id, leaseMsOf(this.config));
    if (!row) return false;
    return this.runClaimed(row);
  }

  /**
   * Runs an evaluation this process has just stored (with its lease), with the input and files it already has:
   * no claim, no reads. Resolves to true when the outcome was recorded.
   */
  runAccepted(row: EvaluationRow, prepared: PreparedRun): Promise<boolean> {
    return this.runClaimed(row, prepared);
  }

  private runClaimed(row: EvaluationRow, prepared?: PreparedRun): Promise<boolean> {
    const run = this.runTimed(row, prepared);
    this.runs.add(run);
    void run.catch(() => undefined).finally(() => this.runs.delete(run));
    return run;
  }

  private async runTimed(row: EvaluationRow, prepared?: PreparedRun): Promise<boolean> {
    const started = performance.now();
    const outcome = await this.evaluate(row, prepared);
    const evaluated = performance.now();
    const recorded = await this.record(row, outcome);
    // Timed only when this run recorded the outcome: a run that lost the race to another runner decided nothing.
    if (recorded) this.metrics.observeEvaluation(outcome.error?.kind ?? 'completed', (performance.now() - started) / 1000);
    this.logger.debug('evaluation run timings', {
      evaluation: row.id,
      input_and_evaluate_ms: round(evaluated - started),
      ...outcome.timings,
      record_ms: round(performance.now() - evaluated),
    });
    return recorded;
  }

  /** Runs a stored evaluation again, as it ran (replay): nothing is recorded. */
  async rerun(row: EvaluationRow): Promise<RunOutcome> {
    return this.evaluate(row);
  }

  async onApplicationShutdown(): Promise<void> {
    // Bounded by the process's shutdown grace period (main.ts), past which it exits whatever is running.
    await Promise.allSettled([...this.runs]);
    await this.engines.close();
  }

  private async evaluate(row: EvaluationRow, prepared?: PreparedRun): Promise<RunOutcome> {
    let bundle: PolicyBundle;
    try {
      const files = prepared?.files ?? (await this.policies.files(row.org_id, row.policy_digest));
      if (!files) throw new Error(`policy ${row.policy_digest} of evaluation ${row.id} is missing`);
      bundle = loadBundle(files, prepared?.digests);
    } catch (error) {
      if (error instanceof PolicyBundleError) return { inputDigest: null, error: { kind: error.kind, message: error.message } };
      throw error;
    }
    const input =
      prepared?.input ??
      inputDocument(
        await this.policyInput.build(row.org_id, row.org_name, row.trails, row.public_base_url),
      );
    const digesting = performance.now();
    const inputJson = canonicalInput(input);
    const inputDigest = `sha256:${sha256Hex(inputJson)}`;
    const inputDigestMs = performance.now() - digesting;
    const data: Record<string, unknown> = row.params === null ? { ...bundle.data } : { ...bundle.data, params: row.params };
    const engine = this.engines.for(bundle);
    const used = { engine: engine.name, engineVersion: engine.version };
    const answer = await engine.run({
      bundle,
      input,
      inputJson,
      data,
      nowNs: nanosecondsOf(row.recorded_at),
      deadlineMs: this.config.evaluations.deadlineMs,
    });
    const policyFileDigests = bundle.fileDigests;
    if (!answer.ok) return { engine: used, inputDigest, error: answer.error, policyFileDigests };
    // A result PostgreSQL cannot store (a NUL character or an unpaired surrogate in a string or a key, e.g. from
    // base64.decode) is the policy's output problem, the same on every replay, not a failure of the service.
    const unstorable = Object.entries(unstorableText(answer.value, 'result')).find(([, problem]) => problem !== TOO_DEEP);
    if (unstorable) return { engine: used, inputDigest, error: { kind: 'policy_output_invalid', message: `${unstorable[0]}: ${unstorable[1]}` }, policyFileDigests };
    const invalid = row.decision ? decisionOutputProblem(answer.value) : null;
    if (invalid) return { engine: used, inputDigest, error: { kind: 'policy_output_invalid', message: invalid }, policyFileDigests };
    const resultDigest = documentDigest(answer.value);
    const t = answer.timings;
    const timings = {
      input_digest_ms: round(inputDigestMs),
      ...(t && { compile_ms: round(t.compileMs), hand_off_ms: round(t.handOffMs), parse_ms: round(t.parseMs), evaluate_ms: round(t.evaluateMs) }),
    };
    return { engine: used, inputDigest, result: answer.value, resultDigest, timings, policyFileDigests, input };
  }

  private async record(row: EvaluationRow, outcome: RunOutcome): Promise<boolean> {
    const engine = outcome.engine ?? { engine: this.engines.rego.name, engineVersion: this.engines.rego.version };
    try {
      return await this.uow.run(async (manager) => {
        const recorded = await this.writeOutcome(manager, row, outcome, engine);
        // The recovery job is not needed any more: gone in the same commit that records the outcome.
        if (recorded) await this.jobs.deleteIn(manager, EVALUATION_QUEUE, row.id);
        return recorded;
      });
    } catch (error) {
      if (isDatabaseUnavailable(error)) throw error;
      // The outcome could not be written (the decision's artifact vanished, a bug ...): not the policy's fault.
      const message = error instanceof AppError ? error.message : 'the outcome could not be recorded';
      if (!(error instanceof AppError)) this.logger.error('evaluation outcome not recorded', { evaluation: row.id, error: (error as Error)?.stack });
      return this.uow.run(async (manager) => {
        const failed = await this.evaluations.fail(manager, row.org_id, row.id, { kind: 'service_error', message }, { ...engine, inputDigest: outcome.inputDigest ?? undefined });
        if (failed) await this.jobs.deleteIn(manager, EVALUATION_QUEUE, row.id);
        return failed;
      });
    }
  }

  /** Writes the outcome (and a decision's attestation and event); false when the evaluation is not pending any more. */
  private async writeOutcome(
    manager: EntityManager,
    row: EvaluationRow,
    outcome: RunOutcome,
    engine: { engine: string; engineVersion: string },
  ): Promise<boolean> {
    if (outcome.error) {
      return this.evaluations.fail(manager, row.org_id, row.id, outcome.error, { ...engine, inputDigest: outcome.inputDigest ?? undefined });
    }
    const completed = await this.evaluations.complete(manager, row.org_id, row.id, {
      ...engine,
      inputDigest: outcome.inputDigest!,
      result: outcome.result,
      resultDigest: outcome.resultDigest!,
    });
    if (!completed) return false;
    // Signed decision: the envelope is stored and logged in this same transaction (trust layer, section 2).
    const allow = (outcome.result as { allow?: unknown } | null)?.allow === true;
    await this.signer.sign(manager, row, outcome.input ?? {}, { allow, engineVersion: engine.engineVersion });
    if (!row.decision) return true;
    const result = outcome.result as { allow: boolean; violations?: string[] };
    const recorded = await this.decisions.record(manager, {
      orgId: row.org_id,
      actor: row.requested_by,
      flow: row.decision.flow,
      trail: row.decision.trail,
      name: row.decision.name,
      control: row.decision.control,
      fingerprint: row.decision.fingerprint ?? null,
      allow: result.allow,
      violations: result.violations ?? [],
      provenance: {
        evaluation_id: row.id,
        policy_digest: row.policy_digest,
        policy_file_digests: outcome.policyFileDigests ?? (await this.policies.fileDigests(row.org_id, row.policy_digest)) ?? {},
        input_digest: outcome.inputDigest!,
        result_digest: outcome.resultDigest!,
        engine: engine.engine,
        engine_version: engine.engineVersion,
        recorded_at: row.recorded_at,
        trails: trailMomentRefs(row.trails),
      },
    });
    await this.evaluations.setDecisionAttestation(manager, row.org_id, row.id, recorded.attestationId);
    return true;
  }
}

const round = (ms: number) => Math.round(ms * 100) / 100;
