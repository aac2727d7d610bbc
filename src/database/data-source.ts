import * as path from 'node:path';
import { DataSource, DataSourceOptions } from 'typeorm';
import { DatabaseSettings } from '../common/config/app-config';

/** Arbitrary constant: serialises migrations when several replicas start at once. */
const MIGRATION_LOCK_KEY = 7_401_332_001;

/**
 * The one DataSource definition, shared by the app, the migration command and the TypeORM CLI (ormconfig.ts).
 * Entities and migrations are found by file name, so a new feature module only adds files. Settings come from
 * the validated config: nothing here reads the environment.
 */
export function buildDataSourceOptions(url: string, settings: DatabaseSettings): DataSourceOptions {
  // Compiled, this file sits in dist/src/database; from ts-node or jest, in src/database.
  const root = path.resolve(__dirname, '../..');
  return {
    type: 'postgres',
    url,
    entities: [path.join(root, 'src/**/*.entity.{js,ts}')],
    migrations: [path.join(root, 'src/database/migrations/*.{js,ts}')],
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    extra: {
      max: settings.poolSize,
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30000,
      application_name: 'veritrail',
      // A statement that hangs (lost server, lock wait) must not hold a request forever.
      statement_timeout: settings.statementTimeoutMs,
    },
  };
}

export async function openDataSource(url: string, settings: DatabaseSettings): Promise<DataSource> {
  const dataSource = new DataSource(buildDataSourceOptions(url, settings));
  await dataSource.initialize();
  return dataSource;
}

/** Runs pending migrations under an advisory lock, each in its own transaction. */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}
