import { Controller, Get, Headers, Res } from '@nestjs/common';
import type { Response } from 'express';
import { QueryBus } from '@nestjs/cqrs';
import { Public } from '../../common/auth/auth.decorators';
import { METRICS_CONTENT_TYPE } from '../../common/metrics/metrics';
import { ApiSuccess } from '../../common/openapi/response-schema';
import { CheckReadinessQuery } from './queries/check-readiness/check-readiness.query';
import { HEALTH_SCHEMA, METRICS_SCHEMA, READY_SCHEMA } from './dto/health.schema';
import { ScrapeMetricsQuery } from './queries/scrape-metrics/scrape-metrics.query';

/** Kubernetes probes and the Prometheus scrape, at the server root (outside /api/v2). */
@Public()
@Controller()
export class HealthController {
  constructor(private readonly queryBus: QueryBus) {}

  /** Liveness: the process answers; it does not touch the database, so a database outage does not restart pods. */
  @Get('health')
  @ApiSuccess(HEALTH_SCHEMA)
  health() {
    return { status: 'ok' };
  }

  /** Readiness: the database is reachable. */
  @Get('ready')
  @ApiSuccess(READY_SCHEMA)
  ready() {
    return this.queryBus.execute(new CheckReadinessQuery());
  }

  /** Prometheus metrics (open unless METRICS_TOKEN is set: the handler checks it). */
  @Get('metrics')
  @ApiSuccess(METRICS_SCHEMA, { contentType: 'text/plain' })
  async metrics(@Headers('authorization') authorization: string | undefined, @Res({ passthrough: true }) res: Response) {
    const text = await this.queryBus.execute(new ScrapeMetricsQuery(authorization));
    // Set once the text is there: an error (401) keeps the JSON error body's own type.
    res.setHeader('Content-Type', METRICS_CONTENT_TYPE);
    return text;
  }
}
