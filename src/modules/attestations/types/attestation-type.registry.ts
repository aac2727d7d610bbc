import { Injectable } from '@nestjs/common';
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
