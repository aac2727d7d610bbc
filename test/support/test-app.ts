import { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory';
import { Clock } from '../../src/common/clock/clock';
import { AppConfig, loadConfig } from '../../src/common/config/app-config';
import { JsonLogger } from '../../src/common/logging/json-logger';
import { Metrics } from '../../src/common/metrics/metrics';
import { openDataSource, runMigrations } from '../../src/database/data-source';
import { PgNotifications } from '../../src/database/pg-notifications';
import { waitOrGiveUp } from './wait';

export interface TestApp {
  app: NestExpressApplication;
  dataSource: DataSource;
  config: AppConfig;
  adminToken: string;
  baseUrl: string;
  http: () => ReturnType<typeof request>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Another PostgreSQL than the shared test one. */
  databaseUrl?: string;
  /** Replaces the system clock (caches, key expiry): pass a `FakeClock` and move it instead of sleeping. */
  clock?: Clock;
  /** Writes the app's log lines somewhere a test can read them (default: a logger at TEST_LOG_LEVEL on stdout). */
  logger?: JsonLogger;
}

/** The real application (same factory as main.ts) on a real port against the test PostgreSQL. */
export async function startTestApp(env: Record<string, string> = {}, options: TestAppOptions | string = {}): Promise<TestApp> {
  const { databaseUrl, clock, logger } = typeof options === 'string' ? { databaseUrl: options, clock: undefined, logger: undefined } : options;
  const url = databaseUrl ?? process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: run the e2e tests through jest (global setup)');
  const adminToken = 'test-operator-token-' + randomBytes(8).toString('hex');
  const config = loadConfig({
    DATA_DIR: path.join(os.tmpdir(), 'veritrail-test-data'),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // Tests check an evaluation's outcome, not how fast it comes: the answer waits for it, however loaded the
    // machine (the wait itself is tested with explicit values). The deadline counts from the request, and under
    // jest a new worker thread first compiles the engine's TypeScript, which on a busy machine takes seconds:
    // deadlines are tested with explicit values too.
    EVALUATION_WAIT_MS: '60000',
    EVALUATION_DEADLINE_MS: '60000',
    ...env,
    DATABASE_URL: url,
    ADMIN_TOKEN: adminToken,
  });
  const dataSource = await openDataSource(url, config.database);
  await runMigrations(dataSource);
  // The process_* and nodejs_* series sample the event loop on a timer that is never stopped: one jest process
  // starts many apps, and they would pile up. The service's own series are all there.
  const metrics = new Metrics({ processMetrics: false });
  const app = await createApp({ config, dataSource, adminToken, logger: logger ?? new JsonLogger(config.logLevel), clock, metrics });
  await app.listen(0, '127.0.0.1');
  // Verified keys are cached only while change notifications arrive: wait for them, so caching is deterministic.
  const notifications = app.get(PgNotifications);
  await waitOrGiveUp(() => notifications.listening, { timeoutMs: 10_000, intervalMs: 10 });
  const address = app.getHttpServer().address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${address.port}`;
  return {
    app,
    dataSource,
    config,
    adminToken,
    baseUrl,
    http: () => request(baseUrl),
    async close() {
      await app.close();
      if (dataSource.isInitialized) await dataSource.destroy();
    },
  };
}

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(5).toString('hex')}`;
}
