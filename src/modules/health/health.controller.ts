import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Public } from '../../common/auth/auth.decorators';
import { CheckReadinessQuery } from './queries/check-readiness/check-readiness.query';

/** Kubernetes probes, at the server root (outside /api/v2), as the reference service has them. */
@Public()
@Controller()
export class HealthController {
  constructor(private readonly queryBus: QueryBus) {}

  /** Liveness: the process answers; it does not touch the database, so a database outage does not restart pods. */
  @Get('health')
  health() {
    return { status: 'ok' };
  }

  /** Readiness: the database is reachable. */
  @Get('ready')
  ready() {
    return this.queryBus.execute(new CheckReadinessQuery());
  }
}
