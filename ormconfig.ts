import 'reflect-metadata';
import * as path from 'node:path';
import { DataSource, DataSourceOptions } from 'typeorm';

/**
 * The one DataSource definition, shared by the app (src/database) and the TypeORM CLI. Entities and
 * migrations are found by file name, so a new feature module only adds files.
 */
export function buildDataSourceOptions(url: string): DataSourceOptions {
  // Compiled, this file sits in dist/ beside dist/src; from ts-node, beside src/.
  const root = __dirname;
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
      max: Number(process.env.DATABASE_POOL_SIZE || 20),
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30000,
      application_name: 'veritrail',
      // A statement that hangs (lost server, lock wait) must not hold a request forever.
      statement_timeout: Number(process.env.DATABASE_STATEMENT_TIMEOUT_MS || 30000),
    },
  };
}

/** For the TypeORM CLI (`npx typeorm -d dist/ormconfig.js migration:show`): needs DATABASE_URL. */
export default new DataSource(buildDataSourceOptions(process.env.DATABASE_URL || 'postgres://localhost/veritrail'));
