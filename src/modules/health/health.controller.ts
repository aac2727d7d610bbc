import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Public } from '../../common/auth/auth.decorators';
import { CheckReadinessQuery } from './queries/check-readiness/check-readiness.query';
import { ApiSuccess } from '../../common/openapi/response-schema';
import { HEALTH_SCHEMA, READY_SCHEMA } from './dto/health.schema';

/** Kubernetes probes, at the server root (outside /api/v2), as the reference service has them. */
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
}
