import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { CurrentOrg, CurrentPrincipal, RequiresBeta, RequiresRole } from '../../common/auth/auth.decorators';
import { OrgContext, Principal } from '../../common/auth/principal';
import { actingScope, orgScope } from '../../common/cqrs/org-scoped';
import { CreateControlCommand } from './commands/create-control/create-control.command';
import { CreateControlRequestDto } from './commands/create-control/create-control.request.dto';
import { SetControlArchivedCommand } from './commands/set-control-archived/set-control-archived.command';
import { UpdateControlCommand } from './commands/update-control/update-control.command';
import { UpdateControlRequestDto } from './commands/update-control/update-control.request.dto';
import { GetControlQuery } from './queries/get-control/get-control.query';
import { ListControlsQuery } from './queries/list-controls/list-controls.query';
import { ListControlsQueryDto } from './queries/list-controls/list-controls.request.dto';
import { ApiSuccess } from '../../common/openapi/response-schema';
import { CONTROL_PAGE_SCHEMA, CONTROL_SCHEMA, CONTROL_VERSION_SCHEMA } from './dto/control.schema';
import { GetControlVersionQuery } from './queries/get-control-version/get-control-version.query';

/** Controls (beta `controls`): admins write them, every member reads them. */
@Controller('controls')
@RequiresBeta('controls')
export class ControlsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  @Post(':org')
  @HttpCode(201)
  @RequiresRole('admin')
  @ApiSuccess(CONTROL_SCHEMA)
  create(@CurrentOrg() org: OrgContext, @CurrentPrincipal() principal: Principal, @Body() body: CreateControlRequestDto) {
    return this.commandBus.execute(new CreateControlCommand({ ...actingScope(org, principal), ...body }));
  }

  @Get(':org')
  @ApiSuccess(CONTROL_PAGE_SCHEMA)
  list(@CurrentOrg() org: OrgContext, @Query() q: ListControlsQueryDto) {
    return this.queryBus.execute(
      new ListControlsQuery({
        ...orgScope(org),
        page: q.page,
        perPage: q.per_page,
        search: q.search,
        tags: q.tag,
        archived: q.archived,
        sortDirection: q.sort_direction,
      }),
    );
  }

  @Get(':org/:identifier')
  @ApiSuccess(CONTROL_SCHEMA)
  get(@CurrentOrg() org: OrgContext, @Param('identifier') identifier: string) {
    return this.queryBus.execute(new GetControlQuery({ ...orgScope(org), identifier }));
  }

  /** One kept version (the control right after one change); never changes, so the evidence log hashes it. */
  @Get(':org/:identifier/versions/:version')
  @ApiSuccess(CONTROL_VERSION_SCHEMA)
  version(@CurrentOrg() org: OrgContext, @Param('identifier') identifier: string, @Param('version') version: string) {
    return this.queryBus.execute(new GetControlVersionQuery({ ...orgScope(org), identifier, version }));
  }

  @Put(':org/:identifier')
  @RequiresRole('admin')
  @ApiSuccess(CONTROL_SCHEMA)
  update(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @Param('identifier') identifier: string,
    @Body() body: UpdateControlRequestDto,
  ) {
    return this.commandBus.execute(new UpdateControlCommand({ ...actingScope(org, principal), identifier, ...body }));
  }

  /** Spec op 10. No body (an empty body or `null` too). */
  @Post(':org/:identifier/archive')
  @HttpCode(200)
  @RequiresRole('admin')
  @ApiSuccess(CONTROL_SCHEMA)
  archive(@CurrentOrg() org: OrgContext, @CurrentPrincipal() principal: Principal, @Param('identifier') identifier: string) {
    return this.commandBus.execute(new SetControlArchivedCommand({ ...actingScope(org, principal), identifier, archived: true }));
  }

  @Post(':org/:identifier/unarchive')
  @HttpCode(200)
  @RequiresRole('admin')
  @ApiSuccess(CONTROL_SCHEMA)
  unarchive(@CurrentOrg() org: OrgContext, @CurrentPrincipal() principal: Principal, @Param('identifier') identifier: string) {
    return this.commandBus.execute(new SetControlArchivedCommand({ ...actingScope(org, principal), identifier, archived: false }));
  }
}
