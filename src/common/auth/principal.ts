export type Role = 'reader' | 'snapshotter' | 'member' | 'admin';
export const ROLES: readonly Role[] = ['reader', 'snapshotter', 'member', 'admin'];

/** Each role can do everything the roles before it can (reader < snapshotter < member < admin). */
export function roleAtLeast(actual: Role, required: Role): boolean {
  return ROLES.indexOf(actual) >= ROLES.indexOf(required);
}

export type BetaFeature = 'evaluations' | 'trail_moments' | 'controls';
export const BETA_FEATURES: readonly BetaFeature[] = ['evaluations', 'trail_moments', 'controls'];

/** Who is calling: a user with a personal key, or a service account of one organization. */
export interface Principal {
  kind: 'user' | 'service_account';
  id: string;
  /** e-mail of a user, name of a service account: what `reported_by`/`created_by` show. */
  name: string;
  keyId: string;
  /** Service accounts belong to exactly one organization. */
  orgId?: string;
  /** Service accounts carry their role themselves; users get theirs from a membership. */
  role?: Role;
}

/** The organization a request is about, resolved by the org guard from the `{org}` path parameter. */
export interface OrgContext {
  id: string;
  name: string;
  region: string;
  features: BetaFeature[];
  role: Role;
}
