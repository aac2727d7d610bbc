import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { OutboxEvent, OutboxEventRepository, StoredOutboxEvent } from './persistence/outbox-event.repository';

/**
 * The outbox module's public surface. A module that changes something others may want to hear about appends
 * an event in the same transaction as the change; a consumer claims pending events in order.
 */
@Injectable()
export class Outbox {
  constructor(private readonly events: OutboxEventRepository) {}

  append(manager: EntityManager, ...events: OutboxEvent[]): Promise<void> {
    return this.events.append(manager, events);
  }

  claim(manager: EntityManager, limit: number): Promise<StoredOutboxEvent[]> {
    return this.events.claim(manager, limit);
  }
}
