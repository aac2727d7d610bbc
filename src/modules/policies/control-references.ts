import { Injectable, OnModuleInit } from '@nestjs/common';
import { ControlDirectory } from '../controls/controls.module';
import { PolicyRepository } from './persistence/policy.repository';

/**
 * Tells the controls module which of the org's policies reference a control (a decision rule with
 * `for_control` in their latest version), for its `policies_referencing`: the controls module cannot import
 * this one (this one imports it), so it asks through the reader registered here.
 */
@Injectable()
export class PolicyControlReferences implements OnModuleInit {
  constructor(
    private readonly controls: ControlDirectory,
    private readonly policies: PolicyRepository,
  ) {}

  onModuleInit(): void {
    this.controls.registerPolicyNames((orgId, identifiers) => this.policies.namesReferencingControls(orgId, identifiers));
  }
}
