import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule, AppModuleOptions } from './app.module';
import { assertEveryRouteClassified, listRouteTable } from './common/auth/route-table';
import { installHttpPipeline } from './common/http/http-pipeline';
import { configureHttpServer } from './common/http/http-server';
import { httpMetrics } from './common/metrics/http-metrics';
import { Metrics } from './common/metrics/metrics';
import { mountOpenApi } from './common/openapi/mount-openapi';

export const API_PREFIX = 'api/v2';
/** Served at the server root, outside API_PREFIX: the probes, the metrics and the MCP endpoint. */
export const UNPREFIXED_PATHS = ['health', 'ready', 'metrics', 'mcp/:org'];

/** Builds the HTTP application exactly as production runs it; main.ts and the e2e tests both use this. */
export async function createApp(options: AppModuleOptions): Promise<NestExpressApplication> {
  const metrics = options.metrics ?? new Metrics();
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register({ ...options, metrics }), {
    bodyParser: false,
    logger: options.logger,
    abortOnError: false,
  });
  configureHttpServer(app.getHttpServer(), options.config.http, options.config.bodyLimitBytes, options.logger);
  installHttpPipeline(app.getHttpAdapter().getInstance(), options.logger, options.config.bodyLimitBytes, httpMetrics(metrics));
  app.setGlobalPrefix(API_PREFIX, { exclude: UNPREFIXED_PATHS });
  // Fail closed: a route that is not public, operator-only, org-scoped or @NotOrgScoped stops start-up here.
  const routes = listRouteTable(app, { prefix: API_PREFIX, exclude: UNPREFIXED_PATHS });
  try {
    assertEveryRouteClassified(routes);
  } catch (error) {
    await app.close();
    throw error;
  }
  mountOpenApi(app, routes);
  return app;
}
