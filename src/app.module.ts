import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AdminTokenHolder } from './common/auth/admin-token.holder';
import { AuthenticationGuard } from './common/auth/authentication.guard';
import { BetaFeatureGuard } from './common/auth/beta-feature.guard';
import { OrganizationGuard } from './common/auth/organization.guard';
import { Clock, SystemClock } from './common/clock/clock';
import { APP_CONFIG, AppConfig } from './common/config/app-config';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter';
import { JsonLogger } from './common/logging/json-logger';
import { StrictValidationPipe } from './common/validation/strict-validation.pipe';
import { DatabaseModule } from './database/database.module';
import { JobsModule } from './jobs/jobs.module';
import { FEATURE_MODULES } from './modules/feature-modules';
import { OpenApiModule } from './openapi/openapi.module';

export interface AppModuleOptions {
  config: AppConfig;
  dataSource: DataSource;
  adminToken: string;
  logger: JsonLogger;
  /** Time for caches and key expiry; SystemClock unless a test passes one it can move. */
  clock?: Clock;
}

@Global()
@Module({})
class CoreModule {
  static register(options: AppModuleOptions): DynamicModule {
    return {
      module: CoreModule,
      providers: [
        { provide: APP_CONFIG, useValue: options.config },
        { provide: AdminTokenHolder, useValue: new AdminTokenHolder(options.adminToken) },
        { provide: JsonLogger, useValue: options.logger },
        { provide: Clock, useValue: options.clock ?? new SystemClock() },
      ],
      exports: [APP_CONFIG, AdminTokenHolder, JsonLogger, Clock],
    };
  }
}

/**
 * The modular monolith. Global pipe, filter and guards are providers (not `app.use*` calls) so that every
 * way of building the app (main.ts, tests) gets them. Guards run in the order listed: authentication ->
 * organization and role -> beta feature.
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
        ...FEATURE_MODULES,
        OpenApiModule,
      ],
      providers: [
        { provide: APP_PIPE, useClass: StrictValidationPipe },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_GUARD, useClass: AuthenticationGuard },
        { provide: APP_GUARD, useClass: OrganizationGuard },
        { provide: APP_GUARD, useClass: BetaFeatureGuard },
      ],
    };
  }
}
