import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectThrottlerOptions, InjectThrottlerStorage, ThrottlerGuard, ThrottlerLimitDetail, ThrottlerModuleOptions, ThrottlerStorage } from '@nestjs/throttler';
import { Clock } from '../clock/clock';
import { APP_CONFIG, AppConfig, RateLimitSettings } from '../config/app-config';
import { TooManyRequestsError } from '../errors/app-error';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * Request counts per key and window, in this process's memory, on the injected clock (so tests move time
 * instead of waiting). A key's window starts with its first request; past the limit the key is refused until
 * the window ends. Entries of ended windows are dropped as new ones come in.
 */
export class ClockThrottlerStorage implements ThrottlerStorage {
  private readonly entries = new Map<string, { hits: number; windowEnds: number; blockedUntil: number }>();
  private sinceSweep = 0;

  constructor(private readonly clock: Clock) {}

  async increment(key: string, ttl: number, limit: number, blockDuration: number): Promise<ThrottlerStorageRecord> {
    const now = this.clock.now();
    if (++this.sinceSweep >= 10_000) this.sweep(now);
    let entry = this.entries.get(key);
    if (!entry || (now >= entry.windowEnds && now >= entry.blockedUntil)) {
      entry = { hits: 0, windowEnds: now + ttl, blockedUntil: 0 };
      this.entries.set(key, entry);
    }
    if (entry.blockedUntil <= now) {
      entry.hits++;
      if (entry.hits > limit) entry.blockedUntil = now + blockDuration;
    }
    const blocked = entry.blockedUntil > now;
    return {
      totalHits: entry.hits,
      timeToExpire: Math.ceil(Math.max(0, entry.windowEnds - now) / 1000),
      isBlocked: blocked,
      timeToBlockExpire: blocked ? Math.ceil((entry.blockedUntil - now) / 1000) : 0,
    };
  }

  private sweep(now: number): void {
    this.sinceSweep = 0;
    for (const [key, entry] of this.entries) if (now >= entry.windowEnds && now >= entry.blockedUntil) this.entries.delete(key);
  }
}

/** `ThrottlerModule.forRootAsync` options: one throttler, per API key, limits from the configuration. */
export function rateLimitOptions(config: AppConfig, clock: Clock): ThrottlerModuleOptions {
  const { requests, windowSeconds } = config.rateLimit;
  return {
    storage: new ClockThrottlerStorage(clock),
    throttlers: [{ name: 'default', limit: requests, ttl: windowSeconds * 1000, blockDuration: windowSeconds * 1000 }],
  };
}

/** Whether a throttler has a skip condition of its own (the fast path does not evaluate one). */
function anySkipIf(throttlers: Array<{ skipIf?: unknown }>): boolean {
  return throttlers.some((t) => t.skipIf !== undefined);
}

function describeLimit(limit: number, settings: RateLimitSettings, per: string): string {
  return `Too many requests: at most ${limit} per ${settings.windowSeconds} s ${per}; retry later`;
}

/**
 * Global guard right after authentication: counts each request against the caller's API key (the operator
 * token counts as one key) and answers 429 with Retry-After past the limit. Requests without a valid
 * credential never get here; `AnonymousRateLimit` counts those per client address. Limits are per process.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super(options, storage, reflector);
  }

  /** Per route handler: whether it sets limits of its own (`@Throttle`, `@SkipThrottle` ...); none does today. */
  private readonly ownSettings = new WeakMap<object, boolean>();

  /**
   * The library's check without its per-request overhead: with one throttler whose limit and window are numbers,
   * and a route that sets nothing of its own, the library's six metadata lookups and three awaited values come
   * out the same on every request. Counting, the headers and the 429 stay the library's (`handleRequest`); a
   * route that sets limits of its own goes through the library's whole check.
   */
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    if (await this.shouldSkip(context)) return true;
    const throttler = this.throttlers.length === 1 ? this.throttlers[0] : undefined;
    if (!throttler || typeof throttler.limit !== 'number' || typeof throttler.ttl !== 'number' || this.routeSetsOwn(context, throttler.name)) {
      return super.canActivate(context);
    }
    return this.handleRequest({
      context,
      limit: throttler.limit,
      ttl: throttler.ttl,
      throttler,
      blockDuration: typeof throttler.blockDuration === 'number' ? throttler.blockDuration : throttler.ttl,
      getTracker: throttler.getTracker ?? this.commonOptions.getTracker!,
      generateKey: throttler.generateKey ?? this.commonOptions.generateKey!,
    });
  }

  private routeSetsOwn(context: ExecutionContext, name = 'default'): boolean {
    const handler = context.getHandler();
    let own = this.ownSettings.get(handler);
    if (own === undefined) {
      // The library's metadata keys (`@nestjs/throttler`'s throttler.constants), per throttler name.
      const keys = ['THROTTLER:SKIP', 'THROTTLER:LIMIT', 'THROTTLER:TTL', 'THROTTLER:BLOCK_DURATION', 'THROTTLER:TRACKER', 'THROTTLER:KEY_GENERATOR'];
      const targets = [handler, context.getClass()];
      own = keys.some((key) => this.reflector.getAllAndOverride(key + name, targets) !== undefined) || !!this.commonOptions.skipIf || !!anySkipIf(this.throttlers);
      this.ownSettings.set(handler, own);
    }
    return own;
  }

  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest();
    return this.config.rateLimit.requests === 0 || (!req.principal && !req.operator);
  }

  protected override async getTracker(req: Record<string, any>): Promise<string> {
    return req.principal ? `key:${req.principal.keyId}` : 'operator';
  }

  /** One count per key across every route (the library's default would count each route separately). */
  protected override generateKey(_context: ExecutionContext, tracker: string): string {
    return tracker;
  }

  protected override async throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    throw new TooManyRequestsError(describeLimit(detail.limit, this.config.rateLimit, 'per API key'), detail.timeToBlockExpire);
  }
}

/**
 * Requests that bring no valid credential (none, malformed, unknown, expired, revoked), counted per client
 * address (`req.ip`): past `RATE_LIMIT_ANONYMOUS_REQUESTS` in a window they get 429 instead of 401, so
 * guessing keys or a misconfigured client cannot hammer the key lookup.
 */
@Injectable()
export class AnonymousRateLimit {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
  ) {}

  async hit(req: { ip?: string; socket?: { remoteAddress?: string } }): Promise<void> {
    const { anonymousRequests: limit, windowSeconds } = this.config.rateLimit;
    if (!limit) return;
    const address = req.ip ?? req.socket?.remoteAddress ?? 'unknown';
    const record = await this.storage.increment(`anonymous:${address}`, windowSeconds * 1000, limit, windowSeconds * 1000, 'anonymous');
    if (record.isBlocked) throw new TooManyRequestsError(describeLimit(limit, this.config.rateLimit, 'per client address without a valid API key'), record.timeToBlockExpire);
  }
}
