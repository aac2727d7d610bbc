import { DynamicModule, Module } from '@nestjs/common';
import { ActionsModule } from './actions.module';
import { NotificationTargetDefinition } from './targets/notification-target';
import { NotificationTargetRegistry } from './targets/notification-target.registry';

/**
 * `NotificationTargetModule.register(definition)`: the one import a target type's module needs. It imports
 * ActionsModule (which provides the registry and the delivery machinery) and adds the definition to the
 * registry when the app boots.
 */
@Module({})
export class NotificationTargetModule {
  static register(definition: NotificationTargetDefinition): DynamicModule {
    return {
      module: NotificationTargetModule,
      imports: [ActionsModule],
      providers: [
        {
          provide: `veritrail:notification-target:${definition.type}`,
          useFactory: (registry: NotificationTargetRegistry) => {
            registry.register(definition);
            return definition;
          },
          inject: [NotificationTargetRegistry],
        },
      ],
    };
  }
}
