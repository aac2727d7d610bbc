import { Module } from '@nestjs/common';
import { OutboxModule } from '../outbox/outbox.module';
import { TrailsModule } from '../trails/trails.module';
import { ActionSubscriptions } from './action-subscriptions';
import { ActionsController } from './actions.controller';
import { DeleteActionHandler } from './commands/delete-action/delete-action.handler';
import { UpsertActionHandler } from './commands/upsert-action/upsert-action.handler';
import { ComplianceWatch } from './delivery/compliance-watch';
import { DeliveryExecutor } from './delivery/delivery-executor';
import { EmailSender } from './delivery/email-sender';
import { HttpPoster } from './delivery/http-poster';
import { OutboxRelay } from './delivery/outbox-relay';
import { TargetGuard } from './delivery/target-guard';
import { EnvironmentsNotificationsController } from './environments-notifications.controller';
import { ActionReader } from './persistence/action.reader';
import { ActionRepository } from './persistence/action.repository';
import { DeliveryReader } from './persistence/delivery.reader';
import { DeliveryRepository } from './persistence/delivery.repository';
import { TrailStatusRepository } from './persistence/trail-status.repository';
import { NotificationTargetRegistry } from './targets/notification-target.registry';
import { GetActionHandler } from './queries/get-action/get-action.handler';
import { ListActionsHandler } from './queries/list-actions/list-actions.handler';
import { ListDeliveriesHandler } from './queries/list-deliveries/list-deliveries.handler';

/**
 * Actions (notification rules) and the delivery of their notifications: `/actions/{org}...` and the legacy
 * `/organizations/{org}/environments_notifications...`; the outbox relay and the delivery workers (WEBHOOK,
 * SLACK, EMAIL). Owns `actions`, `action_deliveries`, `action_delivery_attempts`, `action_trail_status`, and
 * the outbox subscriptions of subscriber `actions`. See README.md beside this file for the event catalogue.
 * Public surface: NotificationTargetRegistry (target types register through NotificationTargetModule.register)
 * and the definition's types; other modules raise events through the outbox, not through this module.
 */
@Module({
  imports: [OutboxModule, TrailsModule],
  controllers: [ActionsController, EnvironmentsNotificationsController],
  providers: [
    ActionRepository,
    ActionReader,
    DeliveryRepository,
    DeliveryReader,
    TrailStatusRepository,
    ActionSubscriptions,
    NotificationTargetRegistry,
    TargetGuard,
    HttpPoster,
    EmailSender,
    DeliveryExecutor,
    ComplianceWatch,
    OutboxRelay,
    UpsertActionHandler,
    DeleteActionHandler,
    ListActionsHandler,
    GetActionHandler,
    ListDeliveriesHandler,
  ],
  exports: [NotificationTargetRegistry],
})
export class ActionsModule {}

export { NotificationTargetRegistry } from './targets/notification-target.registry';
export type { NotificationTargetDefinition, OutgoingNotification, TargetIo, TargetSendResult } from './targets/notification-target';
