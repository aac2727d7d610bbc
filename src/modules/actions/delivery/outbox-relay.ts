import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { AppConfig } from '../../../common/config/app-config';
import { InjectConfig } from '../../../common/config/config.decorators';
import { JsonLogger } from '../../../common/logging/json-logger';
import { PgNotifications } from '../../../database/pg-notifications';
import { UnitOfWork } from '../../../database/unit-of-work';
import { JobQueue } from '../../../jobs/job-queue';
import { Outbox, OUTBOX_CHANNEL, StoredOutboxEvent } from '../../outbox/outbox.module';
import { DeliveryEvent } from '../domain/notification';
import { COMPLIANCE_TRIGGERS, EVENT_TYPES, matchedScopes, RELAYED_EVENT_TYPES, Trigger, TRAIL_COMPLIANCE_CHANGED, TRIGGERS, triggersOf } from '../domain/triggers';
import { ActionReader, LiveAction } from '../persistence/action.reader';
import { DeliveryRepository, NewDelivery } from '../persistence/delivery.repository';
import { NotificationTargetRegistry } from '../targets/notification-target.registry';
import { ComplianceWatch } from './compliance-watch';
import { AttemptOutcome, DeliveryExecutor } from './delivery-executor';

export const ACTION_DELIVERY_QUEUE = 'action-delivery';

const BATCH = 200;
/** The relay also looks for events this often, in case a wake-up was missed (a lost listening connection). */
const POLL_MS = 2_000;
const MAINTENANCE_MS = 60_000;
/** Durable-path workers per process: each takes one job at a time, so a hanging receiver holds at most one. */
const DELIVERY_WORKERS = 4;
/** A pending delivery no attempt has touched for this long has lost its job: it is given a new one. */
const STALE_AFTER_MS = 30 * 60_000;
const KEEP_EVENTS_MS = 7 * 24 * 3_600_000;
const KEEP_DELIVERIES_MS = 30 * 24 * 3_600_000;

class AttemptFailed extends Error {}

/**
 * Moves outbox events to notification deliveries, in worker processes (ROLE worker or all):
 * 1. woken by the outbox's NOTIFY (sent when an event commits) or its 2 s poll, it claims pending events in
 *    batches, and in the same transaction matches them against the org's live actions (type, trigger, flow or
 *    environment, or a logical environment the event's environment was a member of), runs the compliance watch
 *    for trail-compliance triggers, and writes one delivery per (event, action, target) with one pg-boss job
 *    each, due after the retry delay;
 * 2. after that commit it attempts each new delivery at once (the fast path, DeliveryExecutor.tryNow);
 * 3. the job is the durable path: if the fast path did not deliver (failed, no room, or the process died), the
 *    job attempts it, and pg-boss retries a failed attempt with exponential backoff and jitter until the
 *    delivery is delivered or dead-lettered after ACTIONS_DELIVERY_ATTEMPTS attempts. A job that finds its
 *    delivery in flight (elsewhere, or to a receiver this process already has 2 attempts waiting on) puts a
 *    new job a retry delay later in its place.
 * An event is marked dispatched only together with its deliveries and jobs: a process that dies at any point
 * loses nothing; a receiver may see a delivery twice, never miss one.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private draining: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private pollTimer: NodeJS.Timeout | null = null;
  private maintenanceTimer: NodeJS.Timeout | null = null;
  private lastFailureLogged = 0;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly actions: ActionReader,
    private readonly deliveries: DeliveryRepository,
    private readonly watch: ComplianceWatch,
    private readonly executor: DeliveryExecutor,
    private readonly targets: NotificationTargetRegistry,
    private readonly jobs: JobQueue,
    private readonly notifications: PgNotifications,
    @InjectConfig() private readonly config: AppConfig,
    private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.jobs.runsWorkers) return;
    this.notifications.on(OUTBOX_CHANNEL, () => this.kick());
    this.notifications.onStateChange((listening) => listening && this.kick());
    this.pollTimer = setInterval(() => this.kick(), POLL_MS);
    this.pollTimer.unref();
    this.maintenanceTimer = setInterval(() => void this.maintain(), MAINTENANCE_MS);
    this.maintenanceTimer.unref();
    void this.startWorkers();
    this.kick();
  }

  /** Runs the relay now (or once more, if it is running). */
  kick(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drain().finally(() => (this.draining = null));
  }

  /** Resolves when nothing is pending that this relay can see (for tests and benchmarks). */
  async drained(): Promise<void> {
    while (this.draining) await this.draining;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.maintenanceTimer) clearInterval(this.maintenanceTimer);
    await this.draining?.catch(() => undefined);
  }

  private async drain(): Promise<void> {
    try {
      do {
        this.again = false;
        while (!this.stopped && (await this.relayBatch()) === BATCH);
      } while (this.again && !this.stopped);
    } catch (error) {
      // The database is down or a statement failed: the events stay pending; the next poll tries again.
      if (Date.now() - this.lastFailureLogged > 10_000) {
        this.lastFailureLogged = Date.now();
        this.logger.warn('outbox relay failed; retrying', { error: (error as Error).message });
      }
    }
  }

  private async relayBatch(): Promise<number> {
    let created: Array<NewDelivery & { receiver: string }> = [];
    const claimed = await this.uow.run(async (manager) => {
      const events = await this.outbox.claim(manager, BATCH, RELAYED_EVENT_TYPES);
      if (events.length) created = await this.fanOut(manager, events);
      return events.length;
    });
    for (const d of created) this.executor.tryNow(d.id, d.receiver);
    return claimed;
  }

  private async fanOut(manager: EntityManager, events: StoredOutboxEvent[]): Promise<Array<NewDelivery & { receiver: string }>> {
    const live = await this.actions.liveFor(manager, [...new Set(events.map((e) => e.orgId))]);
    if (!live.length) return [];
    const byOrg = new Map<string, LiveAction[]>();
    for (const action of live) byOrg.set(action.org_id, [...(byOrg.get(action.org_id) ?? []), action]);

    const out: Array<NewDelivery & { receiver: string }> = [];
    const deliver = (action: LiveAction, trigger: Trigger, event: DeliveryEvent) => {
      action.targets.forEach((target, targetIndex) =>
        out.push({ id: randomUUID(), orgId: action.org_id, actionId: action.id, targetIndex, trigger, event, receiver: this.targets.receiverKey(target) }),
      );
    };
    // Each action that hears the event, with the names of its scope it heard it by. An environment event carries
    // the logical environments its environment belonged to when it was raised (membership then, not now).
    const matching = (actions: LiveAction[], event: StoredOutboxEvent) =>
      actions.flatMap((action) => {
        const matched = matchedScopes(action.type, action.scopes, event.subject);
        return matched.length ? [{ action, matched }] : [];
      });
    const watched: Array<{ event: StoredOutboxEvent; actions: LiveAction[] }> = [];

    for (const event of events) {
      const heard = matching(byOrg.get(event.orgId) ?? [], event);
      if (!heard.length) continue;
      const actions = heard.map((h) => h.action);
      const delivered = toDeliveryEvent(event, actions[0].org_name);
      const fired = triggersOf(event.type, event.payload);
      for (const { action, matched } of heard) {
        // An environment action's receivers learn which of its environments the change was heard by (a logical
        // one, when only that matched); `subject.environment` says which physical environment changed.
        const forAction: DeliveryEvent = action.type === 'env' ? { ...delivered, matched_environments: matched } : delivered;
        for (const trigger of fired) {
          if (action.triggers.includes(trigger) && TRIGGERS[action.type].includes(trigger)) deliver(action, trigger, forAction);
        }
      }
      if (event.type === EVENT_TYPES.attestationRecorded) {
        const watching = actions.filter((a) => a.type === 'flow' && a.triggers.some((t) => COMPLIANCE_TRIGGERS.includes(t as Trigger)));
        if (watching.length) watched.push({ event, actions: watching });
      }
    }

    // Trail by trail, moments in order: relays lock trails in the same order, so they cannot deadlock.
    const trailKey = (e: StoredOutboxEvent) => `${e.orgId}\u0000${String(e.subject.flow)}\u0000${String(e.subject.trail)}`;
    watched.sort((x, y) => trailKey(x.event).localeCompare(trailKey(y.event)) || Number(x.event.payload.moment_number) - Number(y.event.payload.moment_number));
    for (const { event, actions } of watched) {
      const change = await this.watch.observe(manager, event);
      if (!change) continue;
      const derived: DeliveryEvent = {
        ...toDeliveryEvent(event, actions[0].org_name),
        id: `${event.id}:compliance`,
        type: TRAIL_COMPLIANCE_CHANGED,
        data: {
          status: change.status,
          previous_status: change.previous,
          moment_number: change.momentNumber,
          attestation_id: event.payload.attestation_id,
          attestation_name: event.payload.attestation_name,
        },
      };
      for (const action of actions) if (action.triggers.includes(change.trigger)) deliver(action, change.trigger, derived);
    }

    await this.deliveries.insertMany(manager, out);
    await this.jobs.sendManyIn(
      manager,
      ACTION_DELIVERY_QUEUE,
      out.map((d) => ({ data: { deliveryId: d.id }, spec: this.jobSpec(this.config.actions.retryDelaySeconds) })),
    );
    return out;
  }

  /** Registers the durable-path workers (pg-boss jobs of ACTION_DELIVERY_QUEUE). */
  private async startWorkers(): Promise<void> {
    try {
      for (let i = 0; i < DELIVERY_WORKERS; i++) {
        await this.jobs.work<{ deliveryId: string }>(ACTION_DELIVERY_QUEUE, {
          batchSize: 1,
          pollingIntervalSeconds: 2,
          handle: async (job) => {
            const outcome: AttemptOutcome = await this.executor.attempt(job.data.deliveryId);
            // Not attempted: a new job a little later takes its place (pg-boss's retries are for real attempts).
            if (outcome === 'busy') {
              const delay = this.config.actions.retryDelaySeconds * (1 + Math.random());
              await this.jobs.send(ACTION_DELIVERY_QUEUE, { deliveryId: job.data.deliveryId }, this.jobSpec(delay));
            }
            // Throwing hands the job back to pg-boss, which retries it with backoff and jitter.
            if (outcome === 'retry') throw new AttemptFailed(`delivery ${job.data.deliveryId} failed; retrying`);
          },
        });
      }
    } catch (error) {
      this.logger.warn('notification workers did not start', { error: (error as Error).message });
    }
  }

  /** The job of a delivery: first due after `startInSeconds`, retried with exponential backoff and jitter. */
  private jobSpec(startInSeconds: number) {
    const { deliveryAttempts, retryDelaySeconds, deliveryTimeoutMs } = this.config.actions;
    return {
      // pg-boss also retries a job whose process died mid-attempt: some slack above the attempts.
      retryLimit: deliveryAttempts + 3,
      retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: Math.ceil(deliveryTimeoutMs / 1000) + 30,
      startAfter: new Date(Date.now() + startInSeconds * 1000),
    };
  }

  /** Old events and deliveries go; a pending delivery whose job was lost gets a new one. */
  private async maintain(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.uow.run(async (manager) => {
        const stale = await this.deliveries.reviveStale(manager, STALE_AFTER_MS, 500);
        await this.jobs.sendManyIn(
          manager,
          ACTION_DELIVERY_QUEUE,
          stale.map((deliveryId) => ({ data: { deliveryId }, spec: this.jobSpec(0) })),
        );
        if (stale.length) this.logger.warn('notification deliveries without a job were given a new one', { count: stale.length });
      });
      await this.uow.run((manager) => this.outbox.prune(manager, new Date(Date.now() - KEEP_EVENTS_MS)));
      await this.uow.run((manager) => this.deliveries.prune(manager, KEEP_DELIVERIES_MS));
    } catch (error) {
      this.logger.warn('notification maintenance failed', { error: (error as Error).message });
    }
  }
}

function toDeliveryEvent(event: StoredOutboxEvent, orgName: string): DeliveryEvent {
  return {
    id: event.id,
    type: event.type,
    org: orgName,
    subject: event.subject,
    data: event.payload,
    occurred_at: new Date(event.createdAt).getTime() / 1000,
  };
}
