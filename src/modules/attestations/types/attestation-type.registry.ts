import { DynamicModule, Injectable, Module } from '@nestjs/common';
import { AttestationTypeDefinition } from './attestation-type';

/** Every attestation type the service knows, by name (`attestation_type`). */
@Injectable()
export class AttestationTypeRegistry {
  private readonly byName = new Map<string, AttestationTypeDefinition<any>>();

  register(type: AttestationTypeDefinition<any>): void {
    if (this.byName.has(type.name)) throw new Error(`attestation type '${type.name}' is registered twice`);
    this.byName.set(type.name, type);
  }

  get(name: string): AttestationTypeDefinition<any> | undefined {
    return this.byName.get(name);
  }

  names(): string[] {
    return [...this.byName.keys()].sort();
  }
}

/**
 * `AttestationTypeModule.register(definition)`: the one import a type module needs. The registry is provided
 * (globally) by AttestationsModule; this provider adds the definition to it when the app boots.
 */
@Module({})
export class AttestationTypeModule {
  static register(definition: AttestationTypeDefinition<any>): DynamicModule {
    return {
      module: AttestationTypeModule,
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
}
