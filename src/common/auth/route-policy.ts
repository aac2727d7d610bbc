import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { BASIC_AUTH_ALLOWED, OPERATOR_ROUTE, PUBLIC_ROUTE, REQUIRED_BETA, REQUIRED_ROLE } from './auth.decorators';
import { BetaFeature, Role } from './principal';

/** What a route's auth decorators say (method-level wins over class-level), read once per route. */
export interface RoutePolicy {
  isPublic: boolean;
  operatorOnly: boolean;
  basicAuthAllowed: boolean;
  requiredRole: Role | undefined;
  requiredBeta: BetaFeature | undefined;
}

const policies = new WeakMap<object, WeakMap<object, RoutePolicy>>();

/**
 * The three global guards ask the same questions of the same route on every request; the answers are fixed
 * when the app starts, so they are resolved on the first request of each route and kept.
 */
export function routePolicy(reflector: Reflector, context: ExecutionContext): RoutePolicy {
  const handler = context.getHandler();
  const cls = context.getClass();
  let byHandler = policies.get(cls);
  if (!byHandler) policies.set(cls, (byHandler = new WeakMap()));
  let policy = byHandler.get(handler);
  if (!policy) {
    const targets = [handler, cls];
    policy = {
      isPublic: reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets) ?? false,
      operatorOnly: reflector.getAllAndOverride<boolean>(OPERATOR_ROUTE, targets) ?? false,
      basicAuthAllowed: reflector.getAllAndOverride<boolean>(BASIC_AUTH_ALLOWED, targets) ?? false,
      requiredRole: reflector.getAllAndOverride<Role>(REQUIRED_ROLE, targets),
      requiredBeta: reflector.getAllAndOverride<BetaFeature>(REQUIRED_BETA, targets),
    };
    byHandler.set(handler, policy);
  }
  return policy;
}
