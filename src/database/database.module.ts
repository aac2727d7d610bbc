import { DynamicModule, Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DatabaseProbe } from './database-probe';
import { PgNotifications } from './pg-notifications';
import { UnitOfWork } from './unit-of-work';

/**
 * Provides the one DataSource (opened by the caller: main.ts or the test harness), the unit of work, the
 * readiness probe and the process's LISTEN/NOTIFY connection (PgNotifications). Global: it is infrastructure
 * every module uses, not a feature module.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forDataSource(dataSource: DataSource): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [{ provide: DataSource, useValue: dataSource }, UnitOfWork, DatabaseProbe, PgNotifications],
      exports: [DataSource, UnitOfWork, DatabaseProbe, PgNotifications],
    };
  }
}
