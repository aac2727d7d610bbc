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

/** What a web session cookie stands for: the principal of the API key it was exchanged for. */
export interface SessionCredential {
  principal: Principal;
  /** Whether `token` is the session's anti-forgery token (compared in constant time). */
  csrfMatches(token: string | undefined): boolean;
}

/**
 * Port for the web interface's sessions (implemented by the web-ui module). Optional: without it, a session
 * cookie is no credential at all. A session is only as good as its key: a revoked or expired key ends it.
 */
export abstract class SessionVerifier {
  /** The session named by a raw cookie value, or null when it is unknown, ended, expired, or its key is no longer valid. */
  abstract verify(rawToken: string): Promise<SessionCredential | null>;
}
