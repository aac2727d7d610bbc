import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { BetaFeatureDisabledError } from '../errors/app-error';
import { REQUIRED_BETA } from './auth.decorators';
import { BetaFeature, OrgContext } from './principal';

/** Third global guard: beta routes answer 403 for orgs without the flag, before any body validation. */
@Injectable()
export class BetaFeatureGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const feature = this.reflector.getAllAndOverride<BetaFeature>(REQUIRED_BETA, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!feature) return true;
    const org: OrgContext | undefined = context.switchToHttp().getRequest().org;
    if (!org || !org.features.includes(feature)) throw new BetaFeatureDisabledError(feature, org?.name ?? '');
    return true;
  }
}
