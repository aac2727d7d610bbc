import { NotFoundError } from '../../common/errors/app-error';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { FlowTemplateSpec } from './domain/flow-template';
import { FlowFieldChanges, FlowRef, FlowRepository } from './persistence/flow.repository';
import { FlowRenameRepository } from './persistence/flow-rename.repository';
import { FlowTemplateRepository, StoredTemplate } from './persistence/flow-template.repository';

export interface SaveTemplateVersion {
  orgId: string;
  flowId: string;
  /** The template in force now: an upload with the same source makes no new version. */
  currentTemplateId: string | null;
  spec: FlowTemplateSpec;
  source: string;
  /** It becomes the flow's template (create flow); a trail's own template (begin trail with a file) does not. */
  makeCurrent: boolean;
}

/**
 * The flows module's public surface: what other modules may ask of flows and their templates. Every method
 * that writes runs in the caller's transaction (`manager`).
 */
/**
 * What a rename must wait for before it stamps its time, in its transaction: a module whose records show their
 * flow's name as of their own time (`flowNameAt`) locks here what its writers hold until they commit.
 */
export type RenameHold = (manager: EntityManager, orgId: string, flowId: string) => Promise<void>;

@Injectable()
export class FlowDirectory {
  private readonly renameHolds: RenameHold[] = [];

  constructor(
    private readonly flows: FlowRepository,
    private readonly templates: FlowTemplateRepository,
    private readonly renames: FlowRenameRepository,
  ) {}

  /** Every name, current or former, of the flows called `names` now or before (renames): for filters over stored names. */
  everyNameOf(orgId: string, names: readonly string[]): Promise<string[]> {
    return this.renames.everyNameOf(orgId, names);
  }

  /**
   * Finds or creates a flow. A name a flow was renamed away from is not created again by evidence (404, which
   * the route turns into a redirect to the new name); an explicit create (`mayTakeOldName`) takes it.
   */
  async ensureFlow(manager: EntityManager, orgId: string, name: string, actor: string, mayTakeOldName = false): Promise<FlowRef & { created: boolean }> {
    const flow = await this.flows.ensure(manager, orgId, name, actor, mayTakeOldName);
    if (!flow) throw new NotFoundError(`Flow '${name}' not found`);
    return flow;
  }

  findFlow(manager: EntityManager, orgId: string, name: string): Promise<FlowRef | null> {
    return this.flows.findByName(manager, orgId, name);
  }

  /** Takes the flow row for the rest of the transaction and returns it as it is now. */
  lockFlow(manager: EntityManager, flowId: string): Promise<FlowRef> {
    return this.flows.lock(manager, flowId);
  }

  updateFlow(manager: EntityManager, flowId: string, changes: FlowFieldChanges): Promise<void> {
    return this.flows.update(manager, flowId, changes);
  }

  /**
   * Stores `source` as a new template version of the flow unless it equals the current template's source.
   * Takes the flow row first (after any trail lock the caller holds, the order every writer uses), so two
   * uploads cannot pick the same version number. Returns the template id in force.
   */
  async saveTemplateVersion(manager: EntityManager, request: SaveTemplateVersion): Promise<string> {
    if (request.currentTemplateId) {
      const current = await this.templates.get(request.currentTemplateId, manager);
      if (current && current.source === request.source) return current.id;
    }
    await this.flows.lock(manager, request.flowId);
    const id = await this.templates.insertVersion(manager, request.orgId, request.flowId, request.spec, request.source);
    if (request.makeCurrent) await this.flows.setTemplate(manager, request.flowId, id);
    return id;
  }

  /** The tags module's writer for flows (by name): false when the org has no such flow. */
  async updateTags(
    manager: EntityManager,
    orgId: string,
    name: string,
    update: (current: Record<string, string>) => Record<string, string>,
  ): Promise<boolean> {
    const flow = await this.flows.lockTags(manager, orgId, name);
    if (!flow) return false;
    await this.flows.setTags(manager, flow.id, update(flow.tags ?? {}));
    return true;
  }

  /**
   * Registers what a rename waits for (once per process, at module init): a record written by a writer that
   * holds it commits either before the rename's time is stamped (and shows the old name for good) or after the
   * rename has committed (and shows the new one), never with a time after a rename that commits after it.
   */
  holdOnRename(hold: RenameHold): void {
    this.renameHolds.push(hold);
  }

  /** Takes every registered hold for this flow (the rename, in its transaction, before it stamps its time). */
  async holdWritersOf(manager: EntityManager, orgId: string, flowId: string): Promise<void> {
    for (const hold of this.renameHolds) await hold(manager, orgId, flowId);
  }

  /** A stored template version (immutable, cached). */
  template(id: string, manager?: EntityManager): Promise<StoredTemplate | null> {
    return this.templates.get(id, manager);
  }
}
