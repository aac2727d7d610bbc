import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { OutboxEvent, OutboxEventRepository, StoredOutboxEvent } from './persistence/outbox-event.repository';

/**
 * The outbox module's public surface. A module that changes something others may want to hear about appends
 * an event in the same transaction as the change; a consumer claims pending events in order.
 *
 * Subscriptions say which event types of an org someone consumes. `append` stores every event it is given;
 * `appendWanted` (and `OutboxSql.wanted` inside a statement) stores only those some subscription asks for,
 * which is what a hot path wants: an org without notification rules pays one index probe per event.
 */
@Injectable()
export class Outbox {
  constructor(private readonly events: OutboxEventRepository) {}

  append(manager: EntityManager, ...events: OutboxEvent[]): Promise<void> {
    return this.events.append(manager, events);
  }

  /** Appends only the events whose org subscribes to their type. */
  appendWanted(manager: EntityManager, ...events: OutboxEvent[]): Promise<void> {
    return this.events.append(manager, events, true);
  }

  /** Pending events (of `types`, or any), oldest first, marked dispatched in the caller's transaction. */
  claim(manager: EntityManager, limit: number, types?: readonly string[]): Promise<StoredOutboxEvent[]> {
    return this.events.claim(manager, limit, types);
  }

  /** Makes the event types `subscriber` consumes for org `orgId` exactly `types`, in the caller's transaction. */
  subscribe(manager: EntityManager, subscriber: string, orgId: string, types: readonly string[]): Promise<void> {
    return this.events.subscribe(manager, subscriber, orgId, types);
  }

  /** Deletes events dispatched before `before`. */
  prune(manager: EntityManager, before: Date): Promise<number> {
    return this.events.prune(manager, before);
  }
}
