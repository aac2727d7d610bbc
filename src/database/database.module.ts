import { DynamicModule, Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { UnitOfWork } from './unit-of-work';

/** Provides the one DataSource (opened by the caller: main.ts or the test harness) and the unit of work. */
@Global()
@Module({})
export class DatabaseModule {
  static forDataSource(dataSource: DataSource): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [{ provide: DataSource, useValue: dataSource }, UnitOfWork],
      exports: [DataSource, UnitOfWork],
    };
  }
}
