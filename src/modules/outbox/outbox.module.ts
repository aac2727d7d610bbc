import { Module } from '@nestjs/common';
import { Outbox } from './outbox';
import { OutboxEventRepository } from './persistence/outbox-event.repository';

/**
 * The transactional outbox: events written with the change that caused them (table `outbox_events`).
 * Public surface: Outbox (append, claim).
 */
@Module({
  providers: [OutboxEventRepository, Outbox],
  exports: [Outbox],
})
export class OutboxModule {}

export { Outbox } from './outbox';
export type { OutboxEvent, StoredOutboxEvent } from './persistence/outbox-event.repository';
