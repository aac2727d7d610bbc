/** `npm run migration:run`: applies pending migrations to DATABASE_URL, or to the embedded database. */
import { loadConfig } from '../../common/config/app-config';
import { openDataSource, runMigrations } from '../data-source';
import { startEmbeddedPostgres } from '../embedded/embedded-postgres';

async function main(): Promise<void> {
  const config = loadConfig();
  const embedded = config.databaseUrl ? undefined : await startEmbeddedPostgres({ dataDir: config.dataDir });
  const dataSource = await openDataSource(config.databaseUrl ?? embedded!.url, config.database);
  try {
    const applied = await runMigrations(dataSource);
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'No pending migrations');
  } finally {
    await dataSource.destroy();
    await embedded?.stop();
  }
}

main().catch((error) => {
  console.error(error?.message ?? error);
  process.exit(1);
});
