import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../../../../common/config/app-config';
import { NotFoundError } from '../../../../common/errors/app-error';
import { sqlState } from '../../../../common/errors/database-errors';
import { JsonLogger } from '../../../../common/logging/json-logger';
import { UnitOfWork } from '../../../../database/unit-of-work';
import { JobQueue } from '../../../../jobs/job-queue';
import { ArtifactDirectory } from '../../../artifacts/artifacts.module';
import { ControlDirectory } from '../../../controls/controls.module';
import { PinnedOrMissing, TrailLedger } from '../../../ledger/ledger.module';
import { TrailPolicyInput } from '../../../trails/trails.module';
import { bundleDigests } from '../../domain/policy-bundle';
import { EvaluationResponse, toEvaluationResponse } from '../../dto/evaluation.response';
import { EvaluationPolicyRepository } from '../../persistence/evaluation-policy.repository';
import { EvaluationRepository } from '../../persistence/evaluation.repository';
import { EvaluationJobs } from '../../running/evaluation-jobs';
import { inputDocument } from '../../running/evaluation-input';
import { EVALUATION_QUEUE, EvaluationRunner, leaseMsOf } from '../../running/evaluation-runner';
import { CreateEvaluationCommand } from './create-evaluation.command';

/**
 * 1. Pin the trails at one instant (share locks, then the clock) and check what a decision names (control,
 *    flow, trail, artifact): 404 / 400 before anything is stored.
 * 2. Build the input from those moments (409 when a trail's slots collide).
 * 3. Store the policy (once per digest), the evaluation (pending) and its recovery job, in one transaction.
 * 4. Run it in this process and answer with its state after at most EVALUATION_WAIT_MS.
 */
@CommandHandler(CreateEvaluationCommand)
export class CreateEvaluationHandler implements ICommandHandler<CreateEvaluationCommand> {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly ledger: TrailLedger,
    private readonly artifacts: ArtifactDirectory,
    private readonly controls: ControlDirectory,
    private readonly policyInput: TrailPolicyInput,
    private readonly policies: EvaluationPolicyRepository,
    private readonly evaluations: EvaluationRepository,
    private readonly runner: EvaluationRunner,
    private readonly evaluationJobs: EvaluationJobs,
    private readonly jobs: JobQueue,
    private readonly logger: JsonLogger,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(command: CreateEvaluationCommand): Promise<EvaluationResponse> {
    const { orgId, orgName, actor, files, params, decision } = command.props;
    const requestedAt = new Date();
    const names = distinctTrails(command.props.trails);
    const clock = stopwatch();

    const pinned = await this.retryOnDeadlock(() =>
      this.uow.run(async (manager) => {
        const at = await this.ledger.pinAt(manager, orgId, names);
        const missing = at.trails.find((t): t is Extract<PinnedOrMissing, { missing: string }> => 'missing' in t);
        if (missing) throw notFound(missing);
        let controlId: string | null = null;
        if (decision) {
          const target = await this.ledger.find(manager, orgId, { flowName: decision.flow, trailName: decision.trail });
          if ('missing' in target) throw notFound(target);
          if (decision.fingerprint) {
            const found = await this.artifacts.templateNamesOf(manager, [{ trailId: target.trailId, fingerprint: decision.fingerprint }]);
            if (!found.size) {
              throw new NotFoundError(`Artifact with fingerprint '${decision.fingerprint}' not found in trail '${decision.trail}' of flow '${decision.flow}'`);
            }
          }
          controlId = (await this.controls.requireActive(manager, orgId, decision.control, 'decision.control')).id;
        }
        return { instant: at.instant, trails: at.trails as Array<Extract<PinnedOrMissing, { trailId: string }>>, controlId };
      }),
    );

    const pinMs = clock();
    // The moments are committed and immutable: the input can be built outside the pinning transaction.
    const input = inputDocument(await this.policyInput.build(orgId, orgName, pinned.trails));
    const inputMs = clock();

    const id = randomUUID();
    const digests = bundleDigests(files);
    const { fileDigests, digest } = digests;
    const row = await this.uow.run(async (manager) => {
      await this.policies.ensure(manager, orgId, digest, files, fileDigests);
      const inserted = await this.evaluations.insert(manager, {
        orgId,
        orgName,
        publicBaseUrl: this.config.publicBaseUrl,
        id,
        requestedBy: actor,
        requestedAt,
        recordedAt: pinned.instant,
        policyDigest: digest,
        trails: pinned.trails.map((t) => ({ flowName: t.flowName, trailName: t.trailName, momentNumber: t.momentNumber, trailId: t.trailId })),
        params: params ?? null,
        decision: decision ?? null,
        leaseMs: leaseMsOf(this.config),
      });
      if (pinned.controlId) await this.controls.notePolicyReference(manager, orgId, pinned.controlId, digest);
      await this.jobs.sendIn(manager, EVALUATION_QUEUE, { orgId, id }, this.evaluationJobs.spec(id));
      return inserted;
    });

    const storeMs = clock();
    const run = this.runner.runAccepted(row, { input, files, digests }).catch((error) => {
      // Left pending: the recovery job runs it again.
      this.logger.warn('evaluation run interrupted; its job will retry it', { evaluation: id, error: (error as Error)?.message });
    });
    await waitAtMost(run, this.config.evaluations.waitMs);
    const response = toEvaluationResponse((await this.evaluations.find(orgId, id))!);
    // Where the time of a request went (bench/evaluations reads these at LOG_LEVEL=debug).
    this.logger.debug('evaluation request timings', { evaluation: id, trails: names.length, pin_ms: pinMs, input_ms: inputMs, store_ms: storeMs, run_and_read_ms: clock() });
    return response;
  }

  private async retryOnDeadlock<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        if (sqlState(error) !== '40P01' || attempt >= 3) throw error;
      }
    }
  }
}

/** A flow/trail pair named twice is evaluated once; the order of the request does not matter. */
function distinctTrails(refs: Array<{ flow: string; trail: string }>): Array<{ flowName: string; trailName: string }> {
  const seen = new Map<string, { flowName: string; trailName: string }>();
  for (const ref of refs) seen.set(`${ref.flow}\u0000${ref.trail}`, { flowName: ref.flow, trailName: ref.trail });
  return [...seen.values()];
}

function notFound(missing: { flowName: string; trailName: string; missing: 'flow' | 'trail' }): NotFoundError {
  return missing.missing === 'flow'
    ? new NotFoundError(`Flow '${missing.flowName}' not found`)
    : new NotFoundError(`Trail '${missing.trailName}' not found in flow '${missing.flowName}'`);
}

/** Milliseconds since the last call (or since it was made). */
function stopwatch(): () => number {
  let last = performance.now();
  return () => {
    const now = performance.now();
    const ms = Math.round((now - last) * 100) / 100;
    last = now;
    return ms;
  };
}

/** Resolves when `work` settles or after `ms`, whichever comes first (the work goes on). */
function waitAtMost(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([work.then(() => undefined), timeout]).finally(() => clearTimeout(timer));
}
