import { CanActivate, ExecutionContext, Inject, Injectable, Optional } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { RateLimitGuard } from '../http/rate-limit';
import { RenameRedirects } from '../http/rename-redirect';
import { AuthenticationGuard } from './authentication.guard';
import { BetaFeatureGuard } from './beta-feature.guard';
import { OrganizationGuard } from './organization.guard';

/**
 * The global guards, in their order, as the one guard Nest runs: authentication -> rate limit (per API key) ->
 * organization and role -> beta feature. Nest awaits every guard it runs through an async helper (a few
 * promises each, and each promise runs the request context's hook); here a guard that answers at once costs a
 * call, and only the ones that answer later are awaited. The per-key rate limit is left out of the chain when
 * it is off (`RATE_LIMIT_REQUESTS=0`), as it would skip itself anyway. A guard's error fails the request as
 * before (fail closed): nothing after it runs. Last, once the org is known, an old name of a renamed flow in a
 * filtering query field (`?flow=`) answers 308 before the handler (RenameRedirects.redirectBefore; one probe,
 * only on requests that carry such a field).
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
    // Optional: a test module that builds the guards alone has no renamable resources.
    @Optional() @Inject(RenameRedirects) private readonly renames?: RenameRedirects,
  ) {
    this.chain = config.rateLimit.requests === 0 ? [authentication, organization, beta] : [authentication, rateLimit, organization, beta];
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const passed = this.from(0, context);
    if (!this.renames) return passed;
    return passed instanceof Promise ? passed.then((ok) => ok && this.notRenamed(context)) : passed && this.notRenamed(context);
  }

  private notRenamed(context: ExecutionContext): true | Promise<true> {
    const redirect = this.renames!.redirectBefore(context.switchToHttp().getRequest());
    if (!redirect) return true;
    return redirect.then((renamed) => {
      if (renamed) throw renamed;
      return true;
    });
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
