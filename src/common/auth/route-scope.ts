import { BetaFeature, Role } from './principal';

/**
 * Fail closed: every route is exactly one of
 *   - `public`          `@Public()`: no credential (probes);
 *   - `operator`        `@OperatorOnly()`: the operator token, never an API key;
 *   - `org-scoped`      an `:org` path parameter and no marker: the org guard resolves the org and checks the
 *                       caller's membership and role (`@RequiresRole`, `@RequiresBeta` apply here only);
 *   - `not-org-scoped`  `@NotOrgScoped('why')`: any valid API key, no org, no role: the reason says why that
 *                       is safe.
 * Anything else is refused: the app does not start (the route table is checked when it is built) and, should
 * such a route be reached anyway, the org guard answers 500 instead of letting it through. A route written with
 * `:organization` or `:orgName` therefore cannot quietly skip membership checks.
 */
export type RouteScope = 'public' | 'operator' | 'org-scoped' | 'not-org-scoped';

/** What a route's auth decorators say (method-level wins over class-level). */
export interface RouteMarkers {
  isPublic: boolean;
  operatorOnly: boolean;
  /** The reason given to `@NotOrgScoped(reason)`. */
  notOrgScoped: string | undefined;
  basicAuthAllowed: boolean;
  requiredRole: Role | undefined;
  requiredBeta: BetaFeature | undefined;
}

export type ScopeDecision = { scope: RouteScope; refusal?: undefined } | { scope?: undefined; refusal: string };

/** The org guard's path parameter. */
export const ORG_PARAM = 'org';

/** Raised (at boot, or by the org guard at request time) for a route that is none of the four scopes. */
export class RouteNotClassifiedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RouteNotClassifiedError';
  }
}

// path-to-regexp 8 (Express 5): `:name`, `:"quoted name"`, `*wildcard`; `{...}` makes a part optional.
const PARAM = /([:*])(?:"((?:[^"\\]|\\.)+)"|([A-Za-z_$][\w$]*))/g;

export interface PathParam {
  name: string;
  wildcard: boolean;
  optional: boolean;
}

/** The parameters of one route path as Express will match it. */
export function pathParams(path: string): PathParam[] {
  const params: PathParam[] = [];
  let depth = 0;
  for (let i = 0; i < path.length; i++) {
    const c = path[i];
    if (c === '\\') {
      i++;
    } else if (c === '{') {
      depth++;
    } else if (c === '}') {
      depth = Math.max(0, depth - 1);
    } else if (c === ':' || c === '*') {
      PARAM.lastIndex = i;
      const m = PARAM.exec(path);
      if (m && m.index === i) {
        params.push({ name: m[2] ?? m[3], wildcard: m[1] === '*', optional: depth > 0 });
        i = PARAM.lastIndex - 1;
      }
    }
  }
  return params;
}

const MARKER_NAMES = ['@Public()', '@OperatorOnly()', '@NotOrgScoped()'] as const;

/** The one rule, used by the start-up check and by the org guard alike. */
export function classifyRoute(markers: RouteMarkers, params: PathParam[]): ScopeDecision {
  const set = [markers.isPublic, markers.operatorOnly, markers.notOrgScoped !== undefined];
  const named = MARKER_NAMES.filter((_, i) => set[i]);
  if (named.length > 1) return { refusal: `it is marked ${named.join(' and ')}; a route has exactly one scope` };
  const org = params.find((p) => p.name === ORG_PARAM);
  const orgChecks = [markers.requiredRole && '@RequiresRole()', markers.requiredBeta && '@RequiresBeta()'].filter(Boolean);

  if (named.length === 1) {
    const marker = named[0];
    if (orgChecks.length) {
      return { refusal: `${orgChecks.join(' and ')} only work on org-scoped routes, but it is marked ${marker}` };
    }
    if (markers.operatorOnly) return { scope: 'operator' };
    if (org) return { refusal: `it is marked ${marker} but has an :org path parameter; org data needs a member's key` };
    if (markers.notOrgScoped !== undefined && !markers.notOrgScoped.trim()) {
      return { refusal: '@NotOrgScoped() needs a reason' };
    }
    return { scope: markers.isPublic ? 'public' : 'not-org-scoped' };
  }
  if (!org) {
    return {
      refusal:
        'it has no :org path parameter and no scope marker; name its org parameter :org, or mark it ' +
        "@Public(), @OperatorOnly() or @NotOrgScoped('why')",
    };
  }
  if (org.optional || org.wildcard) return { refusal: 'its :org path parameter must be a plain, required segment' };
  return { scope: 'org-scoped' };
}
