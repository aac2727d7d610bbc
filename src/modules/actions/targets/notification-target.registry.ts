import { Injectable } from '@nestjs/common';
import type { ActionTarget } from '../domain/action-target';
import { BUILTIN_TARGETS } from './builtin-targets';
import type { NotificationTargetDefinition, TargetFieldName } from './notification-target';

/**
 * The types a target's request may name, for the request validators (decorators have no injector): filled by
 * the registry as types register. Registering the same definition again (a second app in one process) is fine.
 */
const CATALOGUE = new Map<string, NotificationTargetDefinition>();

function catalogue(definition: NotificationTargetDefinition): void {
  const known = CATALOGUE.get(definition.type);
  if (known && known !== definition) throw new Error(`notification target type '${definition.type}' is registered twice`);
  CATALOGUE.set(definition.type, definition);
}

/** The registered target types, in registration order (the built-ins first). */
export function targetTypeNames(): string[] {
  return [...CATALOGUE.keys()];
}

/** How a registered type takes a field: 'required', 'optional', or undefined when it does not (or the type is unknown). */
export function targetFieldUse(type: unknown, field: TargetFieldName): 'required' | 'optional' | undefined {
  return typeof type === 'string' ? CATALOGUE.get(type)?.fields[field] : undefined;
}

/** Notification target types by name; the actions module provides it with WEBHOOK, SLACK and EMAIL registered. */
@Injectable()
export class NotificationTargetRegistry {
  private readonly types = new Map<string, NotificationTargetDefinition>();

  constructor() {
    for (const definition of BUILTIN_TARGETS) this.register(definition);
  }

  register(definition: NotificationTargetDefinition): void {
    if (this.types.has(definition.type)) throw new Error(`notification target type '${definition.type}' is registered twice`);
    catalogue(definition);
    this.types.set(definition.type, definition);
  }

  get(type: string): NotificationTargetDefinition | undefined {
    return this.types.get(type);
  }

  /** Which deliveries share a receiver; a type no longer registered is its own receiver. */
  receiverKey(target: ActionTarget): string {
    return this.types.get(target.type)?.receiverKey(target) ?? `type:${target.type}`;
  }
}
