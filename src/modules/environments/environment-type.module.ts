import { DynamicModule, Module } from '@nestjs/common';
import { EnvironmentsModule } from './environments.module';
import { EnvironmentTypeDefinition } from './types/environment-type';
import { EnvironmentTypeRegistry } from './types/environment-type.registry';
import { reportControllerFor } from './types/report.controller';

/**
 * `EnvironmentTypeModule.register(definition)`: the one import a physical environment type needs. It imports
 * EnvironmentsModule (registry, report command, snapshots), mounts the type's report route
 * (`PUT /environments/{org}/{env}/report/<name>`, body validated against the type's DTO) and adds the
 * definition to the registry when the app boots.
 */
@Module({})
export class EnvironmentTypeModule {
  static register(definition: EnvironmentTypeDefinition<any>): DynamicModule {
    return {
      module: EnvironmentTypeModule,
      imports: [EnvironmentsModule],
      controllers: [reportControllerFor(definition)],
      providers: [
        {
          provide: `veritrail:environment-type:${definition.name}`,
          useFactory: (registry: EnvironmentTypeRegistry) => {
            registry.register(definition);
            return definition;
          },
          inject: [EnvironmentTypeRegistry],
        },
      ],
    };
  }
}
