import { Controller, Get, Param, Put, Query, Res, UseInterceptors } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { CurrentOrg, CurrentPrincipal, RequiresBeta } from '../../common/auth/auth.decorators';
import { OrgContext, Principal } from '../../common/auth/principal';
import { MultipartJson } from '../../common/validation/multipart-json';
import { TemplateForm, TemplateFormBody, TemplateFormInterceptor } from '../flows/http/template-form.interceptor';
import { BeginTrailCommand } from './commands/begin-trail/begin-trail.command';
import { BeginTrailDataDto } from './commands/begin-trail/begin-trail.request.dto';
import { DEFAULT_PER_PAGE } from '../../common/pagination/page-envelope';
import { jsonString } from '../../common/http/json-string';
import { GetTrailMomentQuery } from './queries/get-trail-moment/get-trail-moment.query';
import { GetTrailQuery } from './queries/get-trail/get-trail.query';
import { ListTrailsQuery } from './queries/list-trails/list-trails.query';
import { ListFlowTrailsQueryDto, ListOrgTrailsQueryDto } from './queries/list-trails/list-trails.request.dto';

@Controller('trails')
export class TrailsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  @Get(':org')
  listForOrg(@CurrentOrg() org: OrgContext, @Query() q: ListOrgTrailsQueryDto) {
    const tag = q.flow_tag?.match(/^([^=:]+)[=:](.*)$/);
    return this.queryBus.execute(
      new ListTrailsQuery(
        org.id,
        org.name,
        { flow: q.flow, flowTag: tag ? { key: tag[1], value: tag[2] } : undefined, fingerprint: q.fingerprint },
        false,
        q.page ?? 1,
        q.per_page ?? DEFAULT_PER_PAGE,
      ),
    );
  }

  /** 201 when begun, 200 when updated (the CLI prints which). */
  @Put(':org/:flow')
  @UseInterceptors(TemplateFormInterceptor)
  async begin(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @Param('flow') flow: string,
    @MultipartJson(BeginTrailDataDto) data: BeginTrailDataDto,
    @TemplateFormBody() form: TemplateForm,
    @Res({ passthrough: true }) res: Response,
  ) {
    const result = await this.commandBus.execute(new BeginTrailCommand(org.id, principal.name, flow, data, form.templateSource));
    return jsonString(res, result.created ? 201 : 200, result.message);
  }

  @Get(':org/:flow')
  listForFlow(@CurrentOrg() org: OrgContext, @Param('flow') flow: string, @Query() q: ListFlowTrailsQueryDto) {
    return this.queryBus.execute(
      new ListTrailsQuery(org.id, org.name, { flow }, true, q.page ?? 1, q.per_page ?? DEFAULT_PER_PAGE),
    );
  }

  @Get(':org/:flow/:trail')
  get(@CurrentOrg() org: OrgContext, @Param('flow') flow: string, @Param('trail') trail: string) {
    return this.queryBus.execute(new GetTrailQuery(org.id, org.name, flow, trail));
  }

  @Get(':org/:flow/:trail/moments/:expression')
  @RequiresBeta('trail_moments')
  moment(
    @CurrentOrg() org: OrgContext,
    @Param('flow') flow: string,
    @Param('trail') trail: string,
    @Param('expression') expression: string,
  ) {
    return this.queryBus.execute(new GetTrailMomentQuery(org.id, flow, trail, expression));
  }
}
