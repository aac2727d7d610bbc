import { DynamicModule, Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DatabaseProbe } from './database-probe';
import { UnitOfWork } from './unit-of-work';

/**
 * Provides the one DataSource (opened by the caller: main.ts or the test harness), the unit of work and the
 * readiness probe. Global: it is infrastructure every module uses, not a feature module.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forDataSource(dataSource: DataSource): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [{ provide: DataSource, useValue: dataSource }, UnitOfWork, DatabaseProbe],
      exports: [DataSource, UnitOfWork, DatabaseProbe],
    };
  }
}
