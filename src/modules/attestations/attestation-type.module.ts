import { DynamicModule, Module, ModuleMetadata } from '@nestjs/common';
import { AttestationsModule } from './attestations.module';
import { AttestationTypeDefinition } from './types/attestation-type';
import { AttestationTypeRegistry } from './types/attestation-type.registry';

/**
 * `AttestationTypeModule.register(definition)`: the one import a type module needs. It imports
 * AttestationsModule (which provides the registry, the upload pipe and the write path) and adds the
 * definition to the registry when the app boots.
 */
@Module({})
export class AttestationTypeModule {
  static register(definition: AttestationTypeDefinition<any>): DynamicModule {
    return {
      module: AttestationTypeModule,
      imports: [AttestationsModule],
      exports: [AttestationsModule],
      providers: [
        {
          provide: `veritrail:attestation-type:${definition.name}`,
          useFactory: (registry: AttestationTypeRegistry) => {
            registry.register(definition);
            return definition;
          },
          inject: [AttestationTypeRegistry],
        },
      ],
    };
  }

  /**
   * A definition built from providers of other modules (a type judged by the org's own configuration, such as
   * `custom`): `imports` brings those modules, `useFactory(...inject)` returns the definition.
   */
  static registerFactory(
    name: string,
    factory: { imports?: ModuleMetadata['imports']; inject: any[]; useFactory: (...deps: any[]) => AttestationTypeDefinition<any> },
  ): DynamicModule {
    return {
      module: AttestationTypeModule,
      imports: [AttestationsModule, ...(factory.imports ?? [])],
      exports: [AttestationsModule],
      providers: [
        {
          provide: `veritrail:attestation-type:${name}`,
          useFactory: (registry: AttestationTypeRegistry, ...deps: unknown[]) => {
            const definition = factory.useFactory(...deps);
            registry.register(definition);
            return definition;
          },
          inject: [AttestationTypeRegistry, ...factory.inject],
        },
      ],
    };
  }
}
