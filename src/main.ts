import 'reflect-metadata';
import { createApp } from './app.factory';
import { resolveAdminToken } from './common/auth/admin-token';
import { ConfigError, loadConfig } from './common/config/app-config';
import { JsonLogger } from './common/logging/json-logger';
import { openDataSource, runMigrations } from './database/data-source';
import { EmbeddedDatabase, startEmbeddedPostgres } from './database/embedded/embedded-postgres';

async function bootstrap(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = new JsonLogger(config.logLevel);

  let embedded: EmbeddedDatabase | undefined;
  if (!config.databaseUrl) {
    logger.info('starting embedded PostgreSQL', { data_dir: config.dataDir });
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, log: (line) => logger.debug(line, { context: 'postgres' }) });
    logger.info('embedded PostgreSQL ready', { port: embedded.port });
  }

  const dataSource = await openDataSource(config.databaseUrl ?? embedded!.url, config.database);
  if (config.migrationsRun) {
    const applied = await runMigrations(dataSource);
    if (applied.length) logger.info('migrations applied', { migrations: applied });
  }

  const admin = resolveAdminToken(config.adminToken, config.dataDir);
  if (admin.file) {
    logger.info(admin.created ? 'operator token created' : 'operator token loaded', { admin_token_file: admin.file });
  }

  const app = await createApp({ config, dataSource, adminToken: admin.token, logger });
  await app.listen(config.port);
  logger.info('veritrail listening', { port: config.port, region: config.region, base_url: config.publicBaseUrl });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    const force = setTimeout(() => process.exit(1), 20_000);
    force.unref();
    try {
      await app.close();
      if (dataSource.isInitialized) await dataSource.destroy();
      await embedded?.stop();
    } catch (error) {
      logger.error('error during shutdown', { error: (error as Error).message });
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

bootstrap().catch((error) => {
  process.stderr.write(`Start-up failed: ${error?.message ?? error}\n`);
  process.exit(1);
});
