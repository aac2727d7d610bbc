import { ExecutionContext, Type } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import {
  BASIC_AUTH_ALLOWED,
  NOT_ORG_SCOPED,
  OPERATOR_ROUTE,
  PUBLIC_ROUTE,
  REQUIRED_BETA,
  REQUIRED_ROLE,
} from './auth.decorators';
import { BetaFeature, Role } from './principal';
import { classifyRoute, pathParams, RouteMarkers, RouteScope } from './route-scope';

/** What a route's auth decorators say, and the scope they give it (see route-scope.ts), read once per route. */
export interface RoutePolicy extends RouteMarkers {
  /** Undefined when the route is refused: then `refusal` says why. */
  scope: RouteScope | undefined;
  refusal: string | undefined;
}

const policies = new WeakMap<object, WeakMap<object, RoutePolicy>>();

/**
 * The three global guards ask the same questions of the same route on every request; the answers are fixed
 * when the app starts, so they are resolved on the first request of each route and kept.
 */
export function routePolicy(reflector: Reflector, context: ExecutionContext): RoutePolicy {
  return policyOf(reflector, context.getClass(), context.getHandler());
}

/** The same answer for a controller method, outside a request (the route table at start-up). */
export function policyOf(reflector: Reflector, cls: Type<unknown>, handler: Function): RoutePolicy {
  let byHandler = policies.get(cls);
  if (!byHandler) policies.set(cls, (byHandler = new WeakMap()));
  let policy = byHandler.get(handler);
  if (!policy) {
    const targets = [handler, cls];
    const markers: RouteMarkers = {
      isPublic: reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets) ?? false,
      operatorOnly: reflector.getAllAndOverride<boolean>(OPERATOR_ROUTE, targets) ?? false,
      notOrgScoped: reflector.getAllAndOverride<string>(NOT_ORG_SCOPED, targets),
      basicAuthAllowed: reflector.getAllAndOverride<boolean>(BASIC_AUTH_ALLOWED, targets) ?? false,
      requiredRole: reflector.getAllAndOverride<Role>(REQUIRED_ROLE, targets),
      requiredBeta: reflector.getAllAndOverride<BetaFeature>(REQUIRED_BETA, targets),
    };
    policy = { ...markers, ...scopeOfPaths(markers, declaredPaths(cls, handler)) };
    byHandler.set(handler, policy);
  }
  return policy;
}

/** Controller path x method path, as declared (`@Controller('a')` + `@Get(':org')` -> `a/:org`); no prefix. */
export function declaredPaths(cls: Type<unknown>, handler: Function): string[] {
  const list = (value: unknown): string[] => (value === undefined ? [''] : Array.isArray(value) ? value : [String(value)]);
  const paths: string[] = [];
  for (const base of list(Reflect.getMetadata(PATH_METADATA, cls))) {
    for (const own of list(Reflect.getMetadata(PATH_METADATA, handler))) paths.push(joinPath(base, own));
  }
  return paths;
}

export function joinPath(...parts: string[]): string {
  return '/' + parts.flatMap((p) => p.split('/')).filter(Boolean).join('/');
}

/** A method mapped to several paths gets one scope; if they disagree, it is refused. */
function scopeOfPaths(markers: RouteMarkers, paths: string[]): Pick<RoutePolicy, 'scope' | 'refusal'> {
  let scope: RouteScope | undefined;
  for (const path of paths) {
    const decision = classifyRoute(markers, pathParams(path));
    if (decision.refusal) return { scope: undefined, refusal: decision.refusal };
    if (scope && scope !== decision.scope) {
      return { scope: undefined, refusal: `its paths have different scopes (${scope}, ${decision.scope})` };
    }
    scope = decision.scope;
  }
  return { scope, refusal: scope ? undefined : 'it has no path' };
}
