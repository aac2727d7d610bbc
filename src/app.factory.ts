import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule, AppModuleOptions } from './app.module';
import { installHttpPipeline } from './common/http/http-pipeline';

export const API_PREFIX = 'api/v2';

/** Builds the HTTP application exactly as production runs it; main.ts and the e2e tests both use this. */
export async function createApp(options: AppModuleOptions): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(options), {
    bodyParser: false,
    logger: options.logger,
    abortOnError: false,
  });
  installHttpPipeline(app.getHttpAdapter().getInstance(), options.logger, options.config.bodyLimitBytes);
  app.setGlobalPrefix(API_PREFIX, { exclude: ['health', 'ready'] });
  return app;
}
