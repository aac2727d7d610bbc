import { FactoryProvider, Injectable, InjectionToken } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ResourceKind } from './domain/resource-kinds';

/**
 * Changes the tags of one resource, in the caller's transaction: it takes the resource's row, computes the
 * new tags with `update(current)` and stores them, through its own module's repository. Returns false when
 * no resource of the org has that id.
 */
export type TagWriter = (
  manager: EntityManager,
  orgId: string,
  resourceId: string,
  update: (current: Record<string, string>) => Record<string, string>,
) => Promise<boolean>;

/** Who can be tagged: each resource module registers its kind (tagTargetProvider); this module imports none of them. */
@Injectable()
export class TagTargetRegistry {
  private readonly writers = new Map<ResourceKind, TagWriter>();

  register(kind: ResourceKind, writer: TagWriter): void {
    if (this.writers.has(kind)) throw new Error(`tag target '${kind}' is registered twice`);
    this.writers.set(kind, writer);
  }

  get(kind: ResourceKind): TagWriter | undefined {
    return this.writers.get(kind);
  }
}

/**
 * The provider a resource module adds to register its tag target: `tagTargetProvider('flow', FlowDirectory,
 * (flows) => (manager, orgId, name, update) => flows.updateTags(manager, orgId, name, update))`.
 */
export function tagTargetProvider<T>(kind: ResourceKind, dependency: InjectionToken, writerOf: (dep: T) => TagWriter): FactoryProvider {
  return {
    provide: `veritrail:tag-target:${kind}`,
    useFactory: (registry: TagTargetRegistry, dep: T) => {
      registry.register(kind, writerOf(dep));
      return kind;
    },
    inject: [TagTargetRegistry, dependency],
  };
}
