import { Injectable } from '@nestjs/common';

/** The names of an org's named policies whose latest version has a decision rule for each control, by identifier. */
export type PolicyNamesSource = (orgId: string, identifiers: readonly string[]) => Promise<Map<string, string[]>>;

/**
 * The named (environment) policies that reference each control, for `policies_referencing`. The policies
 * module owns those policies and already depends on this one (a policy's `for_control` must name a control),
 * so it registers its reader here through ControlDirectory rather than this module importing it (a cycle).
 */
@Injectable()
export class PolicyNamesOfControls {
  private source: PolicyNamesSource | null = null;

  register(source: PolicyNamesSource): void {
    if (this.source) throw new Error('a source of policy names referencing controls is already registered');
    this.source = source;
  }

  /** Names by control identifier (by name; none when no source is registered, as in a module test). */
  async of(orgId: string, identifiers: readonly string[]): Promise<Map<string, string[]>> {
    if (!this.source || !identifiers.length) return new Map();
    return this.source(orgId, identifiers);
  }

  async ofOne(orgId: string, identifier: string): Promise<string[]> {
    return (await this.of(orgId, [identifier])).get(identifier) ?? [];
  }
}
