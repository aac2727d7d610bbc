import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/common/config/app-config';
import { buildDataSourceOptions } from './src/database/data-source';

/**
 * For the TypeORM CLI (`npx typeorm -d dist/ormconfig.js migration:show`): the app's one DataSource definition
 * (src/database/data-source.ts), configured from the same validated environment. Needs DATABASE_URL.
 */
const config = loadConfig();
export default new DataSource(buildDataSourceOptions(config.databaseUrl ?? 'postgres://localhost/veritrail', config.database));
