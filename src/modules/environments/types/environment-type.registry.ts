import { Injectable } from '@nestjs/common';
import { EnvironmentTypeDefinition, LOGICAL } from './environment-type';

/** Every physical environment type the service knows, by name (`type`, and the report path segment). */
@Injectable()
export class EnvironmentTypeRegistry {
  private readonly byName = new Map<string, EnvironmentTypeDefinition<any>>();

  register(type: EnvironmentTypeDefinition<any>): void {
    if (type.name === LOGICAL || this.byName.has(type.name)) throw new Error(`environment type '${type.name}' is registered twice`);
    this.byName.set(type.name, type);
  }

  get(name: string): EnvironmentTypeDefinition<any> | undefined {
    return this.byName.get(name);
  }

  /** The physical types, sorted. */
  names(): string[] {
    return [...this.byName.keys()].sort();
  }
}
