import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { RateLimitGuard } from '../http/rate-limit';
import { AuthenticationGuard } from './authentication.guard';
import { BetaFeatureGuard } from './beta-feature.guard';
import { OrganizationGuard } from './organization.guard';

/**
 * The global guards, in their order, as the one guard Nest runs: authentication -> rate limit (per API key) ->
 * organization and role -> beta feature. Nest awaits every guard it runs through an async helper (a few
 * promises each, and each promise runs the request context's hook); here a guard that answers at once costs a
 * call, and only the ones that answer later are awaited. The per-key rate limit is left out of the chain when
 * it is off (`RATE_LIMIT_REQUESTS=0`), as it would skip itself anyway. A guard's error fails the request as
 * before (fail closed): nothing after it runs.
 */
@Injectable()
export class RequestGuards implements CanActivate {
  private readonly chain: CanActivate[];

  constructor(
    authentication: AuthenticationGuard,
    rateLimit: RateLimitGuard,
    organization: OrganizationGuard,
    beta: BetaFeatureGuard,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.chain = config.rateLimit.requests === 0 ? [authentication, organization, beta] : [authentication, rateLimit, organization, beta];
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    return this.from(0, context);
  }

  private from(first: number, context: ExecutionContext): boolean | Promise<boolean> {
    for (let i = first; i < this.chain.length; i++) {
      const result = this.chain[i].canActivate(context);
      if (result instanceof Promise) return result.then((passed) => (passed === true ? this.from(i + 1, context) : false));
      if (result !== true) return false; // none of them answers with an observable
    }
    return true;
  }
}
