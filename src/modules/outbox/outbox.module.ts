import { Module } from '@nestjs/common';
import { Outbox } from './outbox';
import { OutboxEventRepository } from './persistence/outbox-event.repository';
import { SubscriptionCopy } from './subscription-copy';

/**
 * The transactional outbox: events written with the change that caused them (table `outbox_events`), and who
 * consumes which event types per org (`outbox_subscriptions`, versioned by `outbox_subscription_version`).
 * Public surface: Outbox (append, claim, subscribe), SubscriptionCopy (a per-process copy of the subscriptions
 * for a hot path), and OutboxSql for a statement that writes its events together with its own rows (the
 * one-statement attestation group, a new trail).
 */
@Module({
  providers: [OutboxEventRepository, Outbox, SubscriptionCopy],
  exports: [Outbox, SubscriptionCopy],
})
export class OutboxModule {}

export { Outbox } from './outbox';
export { OUTBOX_CHANNEL, OutboxSql } from './persistence/outbox-event.repository';
export { SubscriptionCopy, SubscriptionSnapshot } from './subscription-copy';
export type { OutboxEvent, StoredOutboxEvent } from './persistence/outbox-event.repository';
