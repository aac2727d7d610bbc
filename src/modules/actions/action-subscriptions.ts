import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Outbox } from '../outbox/outbox.module';
import { eventTypesFor } from './domain/triggers';
import { ActionRepository } from './persistence/action.repository';

/** The outbox subscriber name of the actions module. */
export const ACTIONS_SUBSCRIBER = 'actions';

/**
 * Keeps the org's outbox subscriptions equal to what its live actions' triggers need, in the transaction that
 * changes the actions: from its commit on, the write paths append exactly the events some action may fire on
 * (an action created later does not need the events of before).
 */
@Injectable()
export class ActionSubscriptions {
  constructor(
    private readonly actions: ActionRepository,
    private readonly outbox: Outbox,
  ) {}

  async refresh(manager: EntityManager, orgId: string): Promise<void> {
    await this.outbox.subscribe(manager, ACTIONS_SUBSCRIBER, orgId, eventTypesFor(await this.actions.liveTriggers(manager, orgId)));
  }
}
