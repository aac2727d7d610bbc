import 'reflect-metadata';
// First: the trace instrumentations patch http and pg as they are loaded (a no-op without OTEL_EXPORTER_OTLP_ENDPOINT).
import { tracing } from './tracing';
import { tuneHeapForBuffers } from './heap-tuning';
import { createApp } from './app.factory';
import { resolveAdminToken } from './common/auth/admin-token';
import { ConfigError, loadConfig } from './common/config/app-config';
import { RequestTracker } from './common/http/request-tracker';
import { JsonLogger } from './common/logging/json-logger';
import { JobQueue } from './jobs/job-queue';
import { openDataSource, runMigrations } from './database/data-source';
import { clusterLocation } from './database/embedded/cluster-location';
import { EmbeddedDatabase, startEmbeddedPostgres } from './database/embedded/embedded-postgres';

async function bootstrap(): Promise<void> {
  const heapFlag = tuneHeapForBuffers();
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
  const { logFormat, shutdownGraceMs } = config.observability;
  const logger = new JsonLogger(config.logLevel, logFormat === 'auto' ? (process.stdout.isTTY ? 'pretty' : 'json') : logFormat);
  if (heapFlag) logger.info('short-lived buffers collected young (this Node.js would leave them to full collections)', { v8_flag: heapFlag, v8: process.versions.v8 });

  let embedded: EmbeddedDatabase | undefined;
  if (!config.databaseUrl) {
    const { clusterDir, movedBecause } = clusterLocation(config.dataDir, { dataDirIsDefault: config.dataDirIsDefault ?? false });
    if (movedBecause) {
      logger.info(`starting embedded PostgreSQL in ${clusterDir}: as root it runs as the OS user "postgres", which cannot reach ${config.dataDir} (${movedBecause}), so the cluster is kept there (set DATA_DIR to choose the folder)`, {
        data_dir: config.dataDir,
        cluster_dir: clusterDir,
      });
    } else {
      logger.info('starting embedded PostgreSQL', { data_dir: config.dataDir, cluster_dir: clusterDir });
    }
    embedded = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      clusterDir,
      log: (line) => logger.debug(line, { context: 'postgres' }),
      restartAfterExit: true,
      report: (level, msg, fields) => logger[level](msg, fields),
    });
    logger.info('embedded PostgreSQL ready', { port: embedded.port, cluster_dir: embedded.clusterDir });
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
  const requests = new RequestTracker(app.getHttpServer());
  logger.info('veritrail listening', { port: config.port, region: config.region, base_url: config.publicBaseUrl });

  // Stop accepting, finish the requests and jobs in hand, then close the database: all within the grace period,
  // past which the process exits anyway, saying what it left unfinished.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    let step = 'finishing requests';
    const force = setTimeout(() => {
      logger.error('shutdown grace period over; exiting with work unfinished', {
        grace_ms: shutdownGraceMs,
        step,
        requests_in_flight: requests.inFlight,
        jobs_running: app.get(JobQueue, { strict: false }).activeJobs,
      });
      // The embedded PostgreSQL is still stopped (fast shutdown, a few seconds at most), so no server outlives us.
      const stopped = embedded ? embedded.stop().catch(() => undefined) : Promise.resolve();
      void Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 5_000))]).then(() => process.exit(1));
    }, shutdownGraceMs);
    force.unref();
    requests.stop();
    logger.info('shutting down', { signal, grace_ms: shutdownGraceMs, requests_in_flight: requests.inFlight });
    let code = 0;
    try {
      await requests.drained();
      step = 'stopping jobs, notifications and evaluations';
      await app.close();
      step = 'closing the database';
      if (dataSource.isInitialized) await dataSource.destroy();
      await embedded?.stop();
      step = 'sending the last traces';
      await tracing?.shutdown();
    } catch (error) {
      code = 1;
      logger.error('error during shutdown', { step, error: (error as Error).message });
    }
    logger.info('shutdown complete', { duration_ms: Date.now() - started });
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

bootstrap().catch((error) => {
  process.stderr.write(`Start-up failed: ${error?.message ?? error}\n`);
  process.exit(1);
});
