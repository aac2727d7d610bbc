import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { ThrottlerModule } from '@nestjs/throttler';
import { DataSource } from 'typeorm';
import { AdminTokenHolder } from './common/auth/admin-token.holder';
import { AuthenticationGuard } from './common/auth/authentication.guard';
import { BetaFeatureGuard } from './common/auth/beta-feature.guard';
import { OrganizationGuard } from './common/auth/organization.guard';
import { RequestGuards } from './common/auth/request-guards';
import { Clock, SystemClock, SystemTimer, Timer } from './common/clock/clock';
import { APP_CONFIG, AppConfig } from './common/config/app-config';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter';
import { ResourceRefusals } from './common/errors/resource-refusals';
import { AnonymousRateLimit, RateLimitGuard, rateLimitOptions } from './common/http/rate-limit';
import { RenameRedirects } from './common/http/rename-redirect';
import { JsonLogger } from './common/logging/json-logger';
import { Metrics, PoolUse } from './common/metrics/metrics';
import { StrictValidationPipe } from './common/validation/strict-validation.pipe';
import { DatabaseModule } from './database/database.module';
import { JobsModule } from './jobs/jobs.module';
import { FEATURE_MODULES } from './modules/feature-modules';
import { OpenApiModule } from './common/openapi/openapi.module';

export interface AppModuleOptions {
  config: AppConfig;
  dataSource: DataSource;
  adminToken: string;
  logger: JsonLogger;
  /** Time for caches and key expiry; SystemClock unless a test passes one it can move. */
  clock?: Clock;
  /** Short waits (the attestation batcher's); SystemTimer unless a test passes one it fires itself. */
  timer?: Timer;
  /** The process's metrics; a fresh set unless the caller keeps one (createApp serves it at /metrics). */
  metrics?: Metrics;
}

@Global()
@Module({})
class CoreModule {
  static register(options: AppModuleOptions): DynamicModule {
    const metrics = options.metrics ?? new Metrics();
    metrics.watchPool(() => poolUse(options.dataSource));
    const clock = options.clock ?? new SystemClock();
    return {
      module: CoreModule,
      providers: [
        { provide: APP_CONFIG, useValue: options.config },
        { provide: AdminTokenHolder, useValue: new AdminTokenHolder(options.adminToken) },
        { provide: JsonLogger, useValue: options.logger },
        { provide: Clock, useValue: clock },
        { provide: Timer, useValue: options.timer ?? new SystemTimer() },
        { provide: Metrics, useValue: metrics },
        { provide: ResourceRefusals, useValue: new ResourceRefusals(options.logger, metrics, clock) },
        // Flows and environments register their renamable names; the exception filter turns an old name's 404 into a 308.
        { provide: RenameRedirects, useValue: new RenameRedirects() },
      ],
      exports: [APP_CONFIG, AdminTokenHolder, JsonLogger, Clock, Timer, Metrics, ResourceRefusals, RenameRedirects],
    };
  }
}

/** The counts of the DataSource's pg pool (TypeORM keeps it as the driver's `master`). */
function poolUse(dataSource: DataSource): PoolUse | undefined {
  const pool = (dataSource.driver as unknown as { master?: { totalCount: number; idleCount: number; waitingCount: number; options?: { max?: number } } }).master;
  if (!pool) return undefined;
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options?.max ?? 0 };
}

/**
 * The modular monolith. Global pipe, filter and guards are providers (not `app.use*` calls) so that every
 * way of building the app (main.ts, tests) gets them. Guards run in this order, as one guard (RequestGuards):
 * authentication -> rate limit (per API key) -> organization and role -> beta feature.
 */
@Module({})
export class AppModule {
  static register(options: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.register(options),
        DatabaseModule.forDataSource(options.dataSource),
        JobsModule,
        CqrsModule.forRoot(),
        ThrottlerModule.forRootAsync({ inject: [APP_CONFIG, Clock], useFactory: rateLimitOptions }),
        ...FEATURE_MODULES,
        OpenApiModule,
      ],
      providers: [
        { provide: APP_PIPE, useClass: StrictValidationPipe },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        AnonymousRateLimit,
        AuthenticationGuard,
        RateLimitGuard,
        OrganizationGuard,
        BetaFeatureGuard,
        // The four above, in that order, as one guard (request-guards.ts says why).
        { provide: APP_GUARD, useClass: RequestGuards },
      ],
    };
  }
}
