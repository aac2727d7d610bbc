import { Body, Controller, Get, Param, Put, Query, Res, UseInterceptors } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { CurrentOrg, CurrentPrincipal } from '../../common/auth/auth.decorators';
import { OrgContext, Principal } from '../../common/auth/principal';
import { jsonString } from '../../common/http/json-string';
import { MultipartJson } from '../../common/validation/multipart-json';
import { CreateFlowCommand } from './commands/create-flow/create-flow.command';
import { CreateFlowDataDto, CreateFlowRequestDto } from './commands/create-flow/create-flow.request.dto';
import { TemplateForm, TemplateFormBody, TemplateFormInterceptor } from './http/template-form.interceptor';
import { GetFlowQuery } from './queries/get-flow/get-flow.query';
import { ListFlowsQuery } from './queries/list-flows/list-flows.query';
import { ListFlowsQueryDto } from './queries/list-flows/list-flows.request.dto';

@Controller('flows')
export class FlowsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  /** 201 when created, 200 when updated (the CLI prints which). */
  @Put(':org')
  async create(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateFlowRequestDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const result = await this.commandBus.execute(
      new CreateFlowCommand(org.id, principal.name, body.name, body.description, body.visibility, body.repo_url, null),
    );
    return jsonString(res, result.created ? 201 : 200, result.message);
  }

  @Put(':org/template_file')
  @UseInterceptors(TemplateFormInterceptor)
  async createWithTemplate(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @MultipartJson(CreateFlowDataDto) data: CreateFlowDataDto,
    @TemplateFormBody() form: TemplateForm,
    @Res({ passthrough: true }) res: Response,
  ) {
    const result = await this.commandBus.execute(
      new CreateFlowCommand(org.id, principal.name, data.name, data.description, data.visibility, data.repo_url, form.templateSource),
    );
    return jsonString(res, result.created ? 201 : 200, result.message);
  }

  @Get(':org')
  list(@CurrentOrg() org: OrgContext, @Query() query: ListFlowsQueryDto) {
    return this.queryBus.execute(
      new ListFlowsQuery(org.id, org.name, query.page, query.per_page, query.search_by_name, query.case_sensitive !== 'false'),
    );
  }

  @Get(':org/:flow')
  get(@CurrentOrg() org: OrgContext, @Param('flow') flow: string) {
    return this.queryBus.execute(new GetFlowQuery(org.id, org.name, flow));
  }
}
