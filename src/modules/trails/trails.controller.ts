import { Controller, Get, Param, Put, Query, Res, UseInterceptors } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { CurrentOrg, CurrentPrincipal, RequiresBeta } from '../../common/auth/auth.decorators';
import { OrgContext, Principal } from '../../common/auth/principal';
import { MultipartJson } from '../../common/validation/multipart-json';
import { TemplateForm, TemplateFormBody, TemplateFormInterceptor } from '../../common/http/template-form.interceptor';
import { BeginTrailCommand } from './commands/begin-trail/begin-trail.command';
import { BeginTrailDataDto } from './commands/begin-trail/begin-trail.request.dto';
import { createdOrUpdated } from '../../common/http/json-string';
import { GetTrailMomentQuery } from './queries/get-trail-moment/get-trail-moment.query';
import { GetTrailQuery } from './queries/get-trail/get-trail.query';
import { ListTrailsQuery } from './queries/list-trails/list-trails.query';
import { ListFlowTrailsQueryDto, ListOrgTrailsQueryDto } from './queries/list-trails/list-trails.request.dto';
import { actingScope, orgScope } from '../../common/cqrs/org-scoped';
import { ApiSuccess, message } from '../../common/openapi/response-schema';
import { TRAIL_MOMENT_SCHEMA, TRAIL_PAGE_SCHEMA, TRAIL_SCHEMA } from './dto/trail.schema';

@Controller('trails')
export class TrailsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  @Get(':org')
  @ApiSuccess(TRAIL_PAGE_SCHEMA)
  listForOrg(@CurrentOrg() org: OrgContext, @Query() q: ListOrgTrailsQueryDto) {
    return this.queryBus.execute(
      new ListTrailsQuery({
        ...orgScope(org),
        filters: { flow: q.flow, flowTag: q.flow_tag, fingerprint: q.fingerprint },
        flowInPath: false,
        page: q.page,
        perPage: q.per_page,
      }),
    );
  }

  /** 201 when begun, 200 when updated (the CLI prints which). */
  @Put(':org/:flow')
  @UseInterceptors(TemplateFormInterceptor)
  @ApiSuccess(message, { status: [201, 200] })
  async begin(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @Param('flow') flow: string,
    @MultipartJson(BeginTrailDataDto) data: BeginTrailDataDto,
    @TemplateFormBody() form: TemplateForm,
    @Res({ passthrough: true }) res: Response,
  ) {
    const result = await this.commandBus.execute(
      new BeginTrailCommand({ ...actingScope(org, principal), flowName: flow, data, templateSource: form.templateSource }),
    );
    return createdOrUpdated(res, result);
  }

  @Get(':org/:flow')
  @ApiSuccess(TRAIL_PAGE_SCHEMA)
  listForFlow(@CurrentOrg() org: OrgContext, @Param('flow') flow: string, @Query() q: ListFlowTrailsQueryDto) {
    return this.queryBus.execute(
      new ListTrailsQuery({ ...orgScope(org), filters: { flow }, flowInPath: true, page: q.page, perPage: q.per_page }),
    );
  }

  @Get(':org/:flow/:trail')
  @ApiSuccess(TRAIL_SCHEMA)
  get(@CurrentOrg() org: OrgContext, @Param('flow') flow: string, @Param('trail') trail: string) {
    return this.queryBus.execute(new GetTrailQuery({ ...orgScope(org), flowName: flow, trailName: trail }));
  }

  @Get(':org/:flow/:trail/moments/:expression')
  @RequiresBeta('trail_moments')
  @ApiSuccess(TRAIL_MOMENT_SCHEMA)
  moment(
    @CurrentOrg() org: OrgContext,
    @Param('flow') flow: string,
    @Param('trail') trail: string,
    @Param('expression') expression: string,
  ) {
    return this.queryBus.execute(new GetTrailMomentQuery({ ...orgScope(org), flowName: flow, trailName: trail, expression }));
  }
}
