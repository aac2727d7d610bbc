import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { APP_CONFIG, AppConfig, Region } from '../config/app-config';
import { ForbiddenError, OrganizationNotFoundError } from '../errors/app-error';
import { OrgDirectory } from './auth-ports';
import { BetaFeature, OrgContext, Principal, roleAtLeast } from './principal';
import { routePolicy } from './route-policy';
import { ORG_PARAM, RouteNotClassifiedError } from './route-scope';

/**
 * Second global guard, for every org-scoped route (an `:org` path parameter): the org must exist in this
 * region (404, with X-Region-Location when a peer deployment holds it), and the caller needs a role in it that
 * is high enough for the route (403).
 *
 * It fails closed: a route that is not exactly one of public, operator-only, org-scoped or `@NotOrgScoped`
 * (route-scope.ts) is answered 500 here rather than let through. Such a route also stops start-up, so this is
 * the second line of defence, for an app built without that check.
 */
@Injectable()
export class OrganizationGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(OrgDirectory) private readonly orgs: OrgDirectory,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const policy = routePolicy(this.reflector, context);
    const req = context.switchToHttp().getRequest();
    if (policy.refusal) throw refused(req, policy.refusal);
    if (policy.scope !== 'org-scoped') return true;
    const orgName: unknown = req.params?.[ORG_PARAM];
    if (typeof orgName !== 'string' || orgName === '') throw refused(req, 'it matched without an :org value');

    const org = await this.orgs.findByName(orgName);
    if (!org) throw new OrganizationNotFoundError(orgName);
    if (org.region !== this.config.region) {
      const peer = this.config.peerRegions[org.region as Region];
      throw new OrganizationNotFoundError(orgName, peer ? { 'X-Region-Location': peer } : {});
    }
    const principal: Principal = req.principal;
    const role = await this.orgs.roleOf(org, principal);
    if (!role) throw new ForbiddenError();
    const required =
      policy.requiredRole ??
      (req.method === 'GET' || req.method === 'HEAD' ? 'reader' : 'member');
    if (!roleAtLeast(role, required)) throw new ForbiddenError();
    const orgContext: OrgContext = {
      id: org.id,
      name: org.name,
      region: org.region,
      features: org.features as BetaFeature[],
      role,
    };
    req.org = orgContext;
    return true;
  }
}

function refused(req: { method: string; route?: { path?: string }; originalUrl?: string }, why: string): RouteNotClassifiedError {
  return new RouteNotClassifiedError(`Route ${req.method} ${req.route?.path ?? req.originalUrl} is refused: ${why}`);
}
