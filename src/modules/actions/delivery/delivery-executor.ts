import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { Clock } from '../../../common/clock/clock';
import { AppConfig } from '../../../common/config/app-config';
import { InjectConfig } from '../../../common/config/config.decorators';
import { JsonLogger } from '../../../common/logging/json-logger';
import { Metrics } from '../../../common/metrics/metrics';
import { UnitOfWork } from '../../../database/unit-of-work';
import { ActionTarget } from '../domain/action-target';
import { DeliveryContext } from '../domain/notification';
import { ActionRepository } from '../persistence/action.repository';
import { DeliveryRepository, LeasedDelivery } from '../persistence/delivery.repository';
import { EmailSender } from './email-sender';
import { NotificationTargetRegistry } from '../targets/notification-target.registry';
import { TargetIo } from '../targets/notification-target';
import { HttpPoster, SendResult } from './http-poster';

/** `done`: delivered, dead-lettered or nothing to do; `retry`: failed with attempts left; `busy`: in flight elsewhere. */
export type AttemptOutcome = 'done' | 'retry' | 'busy';

/** A lease outlives the attempt's time limit by this much, so it never expires under a live attempt. */
const LEASE_MARGIN_MS = 5_000;
/** Fast-path attempts running at once in this process, in all and per receiver (a hanging receiver holds at most its share). */
const FAST_MAX_IN_FLIGHT = 128;
const FAST_MAX_PER_RECEIVER = 8;
/** Durable-path attempts (jobs) per receiver at once in this process: a hanging receiver holds at most 2 of the workers. */
const JOB_MAX_PER_RECEIVER = 2;
const USER_AGENT = 'Veritrail-Notifications/1.0';

/**
 * One attempt at a delivery: lease it (so no other process sends it at the same time), send it to its target,
 * then record the attempt, the delivery's new state (delivered, pending with attempts left, or dead after the
 * last attempt or a permanent refusal) and the action's latest success or failure, in one transaction.
 * A process that stops mid-attempt records nothing: the lease runs out and the delivery's job tries again (the
 * receiver may then see it twice, with the same delivery id).
 */
@Injectable()
export class DeliveryExecutor implements BeforeApplicationShutdown {
  private inFlight = 0;
  private readonly perReceiver = new Map<string, number>();
  private readonly running = new Set<Promise<unknown>>();
  private stopping = false;
  private aborting = false;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly dataSource: DataSource,
    private readonly deliveries: DeliveryRepository,
    private readonly actions: ActionRepository,
    private readonly poster: HttpPoster,
    private readonly email: EmailSender,
    private readonly targets: NotificationTargetRegistry,
    private readonly clock: Clock,
    @InjectConfig() private readonly config: AppConfig,
    private readonly logger: JsonLogger,
    private readonly metrics: Metrics,
  ) {}

  /**
   * The fast path, right after the relay committed: attempts now, in the background, when this process has
   * room for it; otherwise the delivery waits for its job.
   */
  tryNow(id: string, receiver: string): void {
    if (this.stopping || this.inFlight >= FAST_MAX_IN_FLIGHT || (this.perReceiver.get(receiver) ?? 0) >= FAST_MAX_PER_RECEIVER) return;
    this.inFlight++;
    this.take(receiver);
    const run = this.attemptLeased(id, null)
      .catch((error) => this.logger.warn('notification attempt failed to run', { delivery_id: id, error: (error as Error).message }))
      .finally(() => {
        this.inFlight--;
        this.release(receiver);
        this.running.delete(run);
      });
    this.running.add(run);
  }

  /**
   * One attempt from the durable path (a job). `busy` when the delivery is in flight elsewhere, or when this
   * process already has its share of attempts in flight to the same receiver.
   */
  attempt(id: string): Promise<AttemptOutcome> {
    const run = this.attemptLeased(id, JOB_MAX_PER_RECEIVER);
    this.running.add(run);
    void run.catch(() => undefined).finally(() => this.running.delete(run));
    return run;
  }

  private async attemptLeased(id: string, maxPerReceiver: number | null): Promise<AttemptOutcome> {
    const { deliveryTimeoutMs, deliveryAttempts } = this.config.actions;
    const manager = this.dataSource.manager;
    const leased = await this.deliveries.lease(manager, id, deliveryTimeoutMs + LEASE_MARGIN_MS);
    if (!leased) return (await this.deliveries.state(manager, id)) === 'in_flight' ? 'busy' : 'done';
    if (leased.action_deleted || !leased.target) {
      await this.deliveries.abandon(manager, id, leased.lease_token, 'the action was deleted or changed its targets');
      return 'done';
    }
    const receiver = this.targets.receiverKey(leased.target);
    if (maxPerReceiver !== null) {
      if ((this.perReceiver.get(receiver) ?? 0) >= maxPerReceiver) {
        await this.deliveries.releaseLease(manager, id, leased.lease_token);
        return 'busy';
      }
      this.take(receiver);
    }
    const startedAt = new Date(this.clock.now());
    const started = performance.now();
    const result = await this.send(leased, leased.target, startedAt).finally(() => maxPerReceiver !== null && this.release(receiver));
    const durationMs = Math.round(performance.now() - started);
    // An attempt aborted by shutdown records nothing: the delivery is tried again after its lease.
    if (this.aborting) return 'busy';
    const attempt = leased.attempts + 1;
    const status = result.ok ? 'delivered' : result.permanent || attempt >= deliveryAttempts ? 'dead' : 'pending';
    const recorded = await this.uow.run(async (tx) => {
      const held = await this.deliveries.recordAttempt(tx, {
        deliveryId: id,
        leaseToken: leased.lease_token,
        orgId: leased.org_id,
        actionId: leased.action_id,
        attempt,
        succeeded: result.ok,
        statusCode: result.statusCode,
        error: result.error,
        startedAt,
        durationMs,
        status,
      });
      if (held) await this.actions.recordOutcome(tx, leased.action_id, result.ok, new Date(this.clock.now()));
      return held;
    });
    if (!recorded) {
      // The lease ran out under this attempt (the process stalled past the margin) and another attempt took the
      // delivery: that one's outcome is the delivery's; this one is only logged.
      this.logger.warn('notification attempt outlived its lease; not recorded', { delivery_id: id, action_id: leased.action_id, ok: result.ok, error: result.error });
      return 'busy';
    }
    this.metrics.countDelivery(leased.target.type, status === 'delivered' ? 'delivered' : status === 'dead' ? 'dead' : 'failed');
    if (status === 'dead') {
      this.logger.warn('notification dead-lettered', { delivery_id: id, action_id: leased.action_id, attempts: attempt, error: result.error });
    }
    return status === 'pending' ? 'retry' : 'done';
  }

  private take(receiver: string): void {
    this.perReceiver.set(receiver, (this.perReceiver.get(receiver) ?? 0) + 1);
  }

  private release(receiver: string): void {
    const left = (this.perReceiver.get(receiver) ?? 1) - 1;
    if (left > 0) this.perReceiver.set(receiver, left);
    else this.perReceiver.delete(receiver);
  }

  private send(d: LeasedDelivery, target: ActionTarget, at: Date): Promise<SendResult> {
    const timeout = this.config.actions.deliveryTimeoutMs;
    const ctx: DeliveryContext = {
      deliveryId: d.id,
      trigger: d.trigger,
      action: { number: d.action_number, name: d.action_name, type: d.action_type },
      event: d.event,
      sentAt: Math.floor(at.getTime() / 1000),
    };
    const common = {
      'User-Agent': USER_AGENT,
      'X-Veritrail-Event': d.event.type,
      'X-Veritrail-Delivery': d.id,
      'Idempotency-Key': d.id,
      'X-Veritrail-Timestamp': String(ctx.sentAt),
    };
    const definition = this.targets.get(target.type);
    if (!definition) return Promise.resolve({ ok: false, statusCode: null, error: `unknown target type '${target.type}'`, permanent: true });
    return definition.send(target, { ctx, headers: common, timeoutMs: timeout }, this.io);
  }

  /** What a target type sends with: the guarded HTTP client and the mailer. */
  private readonly io: TargetIo = {
    post: (url, body, headers, timeoutMs) => this.poster.post(url, body, headers, timeoutMs),
    mail: (to, message, headers, timeoutMs) => this.email.send(to, message, headers, timeoutMs),
  };

  /**
   * Stops taking fast-path work and lets the attempts in flight finish, for up to SHUTDOWN_GRACE_MS (each is
   * bounded by ACTIONS_DELIVERY_TIMEOUT_MS anyway); sends still in flight then are aborted, and their deliveries
   * are retried after the lease.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    if (this.running.size) {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.config.observability.shutdownGraceMs)));
      await Promise.race([Promise.allSettled([...this.running]), grace]);
      clearTimeout(timer);
    }
    this.aborting = true;
    this.poster.abortAll();
    await Promise.allSettled([...this.running]);
  }
}
