import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { BadRequestError, NotFoundError } from '../../common/errors/app-error';
import { ControlRepository } from './persistence/control.repository';
import { PolicyNamesOfControls, PolicyNamesSource } from './policy-names';

/** The controls module's public surface: what a decision may ask of the control it answers. */
@Injectable()
export class ControlDirectory {
  constructor(
    private readonly controls: ControlRepository,
    private readonly policyNames: PolicyNamesOfControls,
  ) {}

  /**
   * The control a decision (or a policy's decision rule) names, checked in the transaction that writes what
   * names it: 404 when the org has no such control, 400 when it is archived (`field` is the request field the
   * error is keyed by, e.g. `decision.control`). The row is held FOR SHARE until that transaction ends, so an
   * archive either committed before (then this refuses) or waits until the write is committed.
   */
  async requireActive(manager: EntityManager, orgId: string, identifier: string, field: string): Promise<{ id: string }> {
    const control = await this.controls.lockShared(manager, orgId, identifier);
    if (!control) throw new NotFoundError(`Control '${identifier}' not found`, { [field]: 'no such control' });
    if (control.archived) throw new BadRequestError(`Control '${identifier}' is archived`, { [field]: 'is archived' });
    return { id: control.id };
  }

  /** The control by identifier (archived or not), or null: what a read about a control checks first. */
  async find(orgId: string, identifier: string): Promise<{ identifier: string; name: string; archived: boolean } | null> {
    const control = await this.controls.find(orgId, identifier);
    return control ? { identifier: control.identifier, name: control.name, archived: control.archived } : null;
  }

  /** Applies a tag update to a control (its tag target); false when the org has no such control. */
  async updateTags(
    manager: EntityManager,
    orgId: string,
    identifier: string,
    update: (current: Record<string, string>) => Record<string, string>,
  ): Promise<boolean> {
    const control = await this.controls.lockTags(manager, orgId, identifier);
    if (!control) return false;
    await this.controls.setTags(manager, orgId, control.id, update(control.tags ?? {}));
    return true;
  }

  /**
   * The policies module's reader of the named policies that reference controls (a `for_control` in their latest
   * version), listed in `policies_referencing`; registered once, at start.
   */
  registerPolicyNames(source: PolicyNamesSource): void {
    this.policyNames.register(source);
  }

  /** Records that a policy (by its digest) decided on the control, so the control lists it. */
  notePolicyReference(manager: EntityManager, orgId: string, controlId: string, policy: string): Promise<void> {
    return this.controls.noteReference(manager, orgId, controlId, policy);
  }
}
