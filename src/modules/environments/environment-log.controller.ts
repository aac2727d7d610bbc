import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { CurrentOrg } from '../../common/auth/auth.decorators';
import { OrgContext } from '../../common/auth/principal';
import { orgScope } from '../../common/cqrs/org-scoped';
import { ApiSuccess } from '../../common/openapi/response-schema';
import { AUDIT_LOG_SCHEMA, ENVIRONMENT_EVENT_LIST_SCHEMA } from './dto/environment-event.schema';
import { pagingHeaders } from './dto/paging-headers';
import { listOf } from './dto/query-fields';
import { GetAuditLogQuery } from './queries/get-audit-log/get-audit-log.query';
import { GetAuditLogQueryDto } from './queries/get-audit-log/get-audit-log.request.dto';
import { ListEnvironmentEventsQuery } from './queries/list-environment-events/list-environment-events.query';
import { ListEnvironmentEventsQueryDto } from './queries/list-environment-events/list-environment-events.request.dto';

/** An environment's event log (`kosli log environment`) and its audit log (CSV). */
@Controller('environments')
export class EnvironmentLogController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get(':org/:env/events')
  @ApiSuccess(ENVIRONMENT_EVENT_LIST_SCHEMA)
  async events(@CurrentOrg() org: OrgContext, @Param('env') env: string, @Query() q: ListEnvironmentEventsQueryDto, @Res({ passthrough: true }) res: Response) {
    const page = await this.queryBus.execute(
      new ListEnvironmentEventsQuery({
        ...orgScope(org),
        envName: env,
        interval: q.interval,
        start: q.start,
        end: q.end,
        startTs: q.start_ts,
        endTs: q.end_ts,
        repoNames: listOf(q.repo_name),
        oldestFirst: q.reverse?.toLowerCase() === 'true',
        page: q.page,
        perPage: q.per_page,
      }),
    );
    res.set(pagingHeaders(res.req.originalUrl, page));
    return page.events;
  }

  @Get(':org/:env/auditlog')
  @ApiSuccess(AUDIT_LOG_SCHEMA, { contentType: 'text/csv' })
  auditLog(@CurrentOrg() org: OrgContext, @Param('env') env: string, @Query() q: GetAuditLogQueryDto) {
    return this.queryBus.execute(
      new GetAuditLogQuery({
        ...orgScope(org),
        envName: env,
        fromTimestamp: q.from_timestamp,
        toTimestamp: q.to_timestamp,
        eventTypes: q.event_types,
        flowNames: q.flow_names,
        repoNames: q.repo_names,
      }),
    );
  }
}
