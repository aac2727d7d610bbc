import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../../../../common/config/app-config';
import { UnauthorizedError } from '../../../../common/errors/app-error';
import { Metrics } from '../../../../common/metrics/metrics';
import { ScrapeMetricsQuery } from './scrape-metrics.query';

/**
 * Open by default, as Prometheus in a cluster scrapes without credentials (keep the port inside the cluster);
 * with METRICS_TOKEN set, only `Authorization: Bearer <METRICS_TOKEN>` is answered.
 */
@QueryHandler(ScrapeMetricsQuery)
export class ScrapeMetricsHandler implements IQueryHandler<ScrapeMetricsQuery> {
  constructor(
    private readonly metrics: Metrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  execute(query: ScrapeMetricsQuery): Promise<string> {
    const token = this.config.observability.metricsToken;
    if (token !== undefined && !bearerMatches(query.authorization, token)) {
      throw new UnauthorizedError('Metrics need Authorization: Bearer <METRICS_TOKEN>');
    }
    return this.metrics.scrape();
  }
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
