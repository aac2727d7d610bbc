import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { BetaFeatureDisabledError } from '../errors/app-error';
import { OrgContext } from './principal';
import { routePolicy } from './route-policy';

/** Third global guard: beta routes answer 403 for orgs without the flag, before any body validation. */
@Injectable()
export class BetaFeatureGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const feature = routePolicy(this.reflector, context).requiredBeta;
    if (!feature) return true;
    const org: OrgContext | undefined = context.switchToHttp().getRequest().org;
    if (!org || !org.features.includes(feature)) throw new BetaFeatureDisabledError(feature, org?.name ?? '');
    return true;
  }
}
