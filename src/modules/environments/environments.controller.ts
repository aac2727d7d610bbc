import { Body, Controller, Get, Param, Put, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { CurrentOrg, CurrentPrincipal } from '../../common/auth/auth.decorators';
import { OrgContext, Principal } from '../../common/auth/principal';
import { actingScope, orgScope } from '../../common/cqrs/org-scoped';
import { createdOrUpdated, jsonString } from '../../common/http/json-string';
import { CreateEnvironmentCommand } from './commands/create-environment/create-environment.command';
import { CreateEnvironmentRequestDto } from './commands/create-environment/create-environment.request.dto';
import { JoinEnvironmentCommand } from './commands/join-environment/join-environment.command';
import { JoinEnvironmentRequestDto } from './commands/join-environment/join-environment.request.dto';
import { listOf } from './dto/query-fields';
import { DiffSnapshotsQuery } from './queries/diff-snapshots/diff-snapshots.query';
import { DiffSnapshotsQueryDto } from './queries/diff-snapshots/diff-snapshots.request.dto';
import { GetEnvironmentQuery } from './queries/get-environment/get-environment.query';
import { ListEnvironmentsQuery } from './queries/list-environments/list-environments.query';
import { ListEnvironmentsQueryDto } from './queries/list-environments/list-environments.request.dto';
import { ApiSuccess, message } from '../../common/openapi/response-schema';
import { ENVIRONMENT_LIST_SCHEMA, ENVIRONMENT_SCHEMA, SNAPSHOT_DIFF_SCHEMA } from './dto/environment.schema';

/** Environments; the report routes are each environment type's (types/), the snapshot reads are SnapshotsController's. */
@Controller('environments')
export class EnvironmentsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  /** 201 when created, 200 when updated. */
  @Put(':org')
  @ApiSuccess(message, { status: [201, 200] })
  async create(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateEnvironmentRequestDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const result = await this.commandBus.execute(
      new CreateEnvironmentCommand({
        ...actingScope(org, principal),
        name: body.name,
        type: body.type,
        description: body.description,
        includeScaling: body.include_scaling,
        requireProvenance: body.require_provenance,
        includedEnvironments: body.included_environments,
      }),
    );
    return createdOrUpdated(res, result);
  }

  @Get(':org')
  @ApiSuccess(ENVIRONMENT_LIST_SCHEMA)
  list(@CurrentOrg() org: OrgContext, @Query() q: ListEnvironmentsQueryDto) {
    return this.queryBus.execute(
      new ListEnvironmentsQuery({
        ...orgScope(org),
        filter: {
          name: q.name,
          types: listOf(q.type),
          tags: listOf(q.tag),
          spaceIds: listOf(q.space_id),
          sort: q.sort ?? 'name',
          direction: q.sort_direction ?? 'asc',
          archived: q.archived === 'true',
        },
        page: q.page,
        perPage: q.per_page,
      }),
    );
  }

  @Get(':org/:env')
  @ApiSuccess(ENVIRONMENT_SCHEMA)
  get(@CurrentOrg() org: OrgContext, @Param('env') env: string) {
    return this.queryBus.execute(new GetEnvironmentQuery({ ...orgScope(org), envName: env }));
  }

  /** 200 `"OK"`, also when the environment had joined already. */
  @Put(':org/:env/join')
  @ApiSuccess(message)
  async join(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @Param('env') env: string,
    @Body() body: JoinEnvironmentRequestDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const message = await this.commandBus.execute(
      new JoinEnvironmentCommand({ ...actingScope(org, principal), logicalName: env, physicalName: body.physical_env_name }),
    );
    return jsonString(res, 200, message);
  }

  @Get(':org/:env/diff')
  @ApiSuccess(SNAPSHOT_DIFF_SCHEMA)
  diff(@CurrentOrg() org: OrgContext, @Param('env') env: string, @Query() q: DiffSnapshotsQueryDto) {
    return this.queryBus.execute(new DiffSnapshotsQuery({ ...orgScope(org), envName: env, from: q.from ?? '~1', to: q.to ?? 'latest' }));
  }
}
