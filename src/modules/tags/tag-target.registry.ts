import { FactoryProvider, Injectable, InjectionToken } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { BetaFeature } from '../../common/auth/principal';
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
  private readonly writers = new Map<ResourceKind, TagTarget>();

  register(kind: ResourceKind, writer: TagWriter, options: TagTargetOptions = {}): void {
    if (this.writers.has(kind)) throw new Error(`tag target '${kind}' is registered twice`);
    this.writers.set(kind, { write: writer, beta: options.beta });
  }

  get(kind: ResourceKind): TagTarget | undefined {
    return this.writers.get(kind);
  }
}

export interface TagTargetOptions {
  /** The beta flag the resource's own routes need: tagging it needs it too (403 for orgs without it). */
  beta?: BetaFeature;
}

export interface TagTarget {
  write: TagWriter;
  beta?: BetaFeature;
}

/**
 * The provider a resource module adds to register its tag target: `tagTargetProvider('flow', FlowDirectory,
 * (flows) => (manager, orgId, name, update) => flows.updateTags(manager, orgId, name, update))`.
 */
export function tagTargetProvider<T>(
  kind: ResourceKind,
  dependency: InjectionToken,
  writerOf: (dep: T) => TagWriter,
  options: TagTargetOptions = {},
): FactoryProvider {
  return {
    provide: `veritrail:tag-target:${kind}`,
    useFactory: (registry: TagTargetRegistry, dep: T) => {
      registry.register(kind, writerOf(dep), options);
      return kind;
    },
    inject: [TagTargetRegistry, dependency],
  };
}
