import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { CheckReadinessHandler } from './queries/check-readiness/check-readiness.handler';
import { ScrapeMetricsHandler } from './queries/scrape-metrics/scrape-metrics.handler';

@Module({ controllers: [HealthController], providers: [CheckReadinessHandler, ScrapeMetricsHandler] })
export class HealthModule {}
