import { Principal, Role } from './principal';

export interface ResolvedOrg {
  id: string;
  name: string;
  region: string;
  features: string[];
}

/**
 * Ports the global guards depend on; the identity and organizations modules implement them. Keeping the
 * guards free of persistence lets a new credential type or org store slot in without touching them.
 */
export abstract class CredentialVerifier {
  /** Returns the principal for a raw API key, or null when the key is unknown, expired or revoked. */
  abstract verify(rawKey: string): Promise<Principal | null>;
}

export abstract class OrgDirectory {
  abstract findByName(name: string): Promise<ResolvedOrg | null>;
  /** The caller's role in the org, or null when it has none. */
  abstract roleOf(org: ResolvedOrg, principal: Principal): Promise<Role | null>;
}
