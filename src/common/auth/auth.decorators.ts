import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { BetaFeature, OrgContext, Principal, Role } from './principal';

export const PUBLIC_ROUTE = 'veritrail:public';
export const BASIC_AUTH_ALLOWED = 'veritrail:basic-auth';
export const OPERATOR_ROUTE = 'veritrail:operator';
export const NOT_ORG_SCOPED = 'veritrail:not-org-scoped';
export const REQUIRED_ROLE = 'veritrail:role';
export const REQUIRED_BETA = 'veritrail:beta';

// Every route is exactly one of: @Public(), @OperatorOnly(), org-scoped by an `:org` path parameter, or
// @NotOrgScoped('why'). Anything else does not start (see route-scope.ts).

/** No credential needed (health probes). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);
/** The route also accepts HTTP Basic (API key as username, or as password). */
export const AllowBasicAuth = () => SetMetadata(BASIC_AUTH_ALLOWED, true);
/** Operator routes: Bearer ADMIN_TOKEN instead of an API key. */
export const OperatorOnly = () => SetMetadata(OPERATOR_ROUTE, true);
/**
 * Any valid API key, and no organization: the route touches no organization's data, so there is no
 * membership or role to check. The reason is required so that a reviewer sees why that is safe.
 */
export const NotOrgScoped = (reason: string) => SetMetadata(NOT_ORG_SCOPED, reason);
/** Lowest role that may call the route. Default: reader for GET/HEAD, member for other methods. */
export const RequiresRole = (role: Role) => SetMetadata(REQUIRED_ROLE, role);
/** The org must have this beta feature enabled (checked before the body is validated). */
export const RequiresBeta = (feature: BetaFeature) => SetMetadata(REQUIRED_BETA, feature);

export const CurrentPrincipal = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Principal => ctx.switchToHttp().getRequest().principal,
);
export const CurrentOrg = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): OrgContext => ctx.switchToHttp().getRequest().org,
);
