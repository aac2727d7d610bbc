import { Body, Controller, Get, Param, Put, Query, Res, UseInterceptors } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { CurrentOrg, CurrentPrincipal } from '../../common/auth/auth.decorators';
import { OrgContext, Principal } from '../../common/auth/principal';
import { createdOrUpdated } from '../../common/http/json-string';
import { MultipartJson } from '../../common/validation/multipart-json';
import { CreateFlowCommand } from './commands/create-flow/create-flow.command';
import { CreateFlowDataDto, CreateFlowRequestDto } from './commands/create-flow/create-flow.request.dto';
import { TemplateForm, TemplateFormBody, TemplateFormInterceptor } from '../../common/http/template-form.interceptor';
import { GetFlowQuery } from './queries/get-flow/get-flow.query';
import { ArchiveFlowCommand } from './commands/archive-flow/archive-flow.command';
import { RenameFlowCommand } from './commands/rename-flow/rename-flow.command';
import { RenameFlowRequestDto } from './commands/rename-flow/rename-flow.request.dto';
import { jsonString } from '../../common/http/json-string';
import { ListFlowsQuery } from './queries/list-flows/list-flows.query';
import { ListFlowsQueryDto } from './queries/list-flows/list-flows.request.dto';
import { actingScope, orgScope } from '../../common/cqrs/org-scoped';
import { ApiSuccess, message } from '../../common/openapi/response-schema';
import { FLOW_LIST_SCHEMA, FLOW_SCHEMA } from './dto/flow.schema';

@Controller('flows')
export class FlowsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  /** 201 when created, 200 when updated (the CLI prints which). */
  @Put(':org')
  @ApiSuccess(message, { status: [201, 200] })
  async create(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateFlowRequestDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const result = await this.commandBus.execute(
      new CreateFlowCommand({
        ...actingScope(org, principal),
        name: body.name,
        description: body.description,
        visibility: body.visibility,
        repoUrl: body.repo_url,
        templateSource: null,
      }),
    );
    return createdOrUpdated(res, result);
  }

  @Put(':org/template_file')
  @UseInterceptors(TemplateFormInterceptor)
  @ApiSuccess(message, { status: [201, 200] })
  async createWithTemplate(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @MultipartJson(CreateFlowDataDto) data: CreateFlowDataDto,
    @TemplateFormBody() form: TemplateForm,
    @Res({ passthrough: true }) res: Response,
  ) {
    const result = await this.commandBus.execute(
      new CreateFlowCommand({
        ...actingScope(org, principal),
        name: data.name,
        description: data.description,
        visibility: data.visibility,
        repoUrl: data.repo_url,
        templateSource: form.templateSource,
      }),
    );
    return createdOrUpdated(res, result);
  }

  @Get(':org')
  @ApiSuccess(FLOW_LIST_SCHEMA)
  list(@CurrentOrg() org: OrgContext, @Query() query: ListFlowsQueryDto) {
    return this.queryBus.execute(
      new ListFlowsQuery({
        ...orgScope(org),
        page: query.page,
        perPage: query.per_page,
        searchByName: query.search_by_name,
        caseSensitive: query.case_sensitive !== 'false',
        archived: query.archived === 'true',
      }),
    );
  }

  @Get(':org/:flow')
  @ApiSuccess(FLOW_SCHEMA)
  get(@CurrentOrg() org: OrgContext, @Param('flow') flow: string) {
    return this.queryBus.execute(new GetFlowQuery({ ...orgScope(org), flowName: flow }));
  }

  /** Archive: hidden from the list (unless `archived=true`), readable, refuses new evidence (400). */
  @Put(':org/:flow/archive')
  @ApiSuccess(message)
  async archive(@CurrentOrg() org: OrgContext, @CurrentPrincipal() principal: Principal, @Param('flow') flow: string, @Res({ passthrough: true }) res: Response) {
    return jsonString(res, 200, await this.commandBus.execute(new ArchiveFlowCommand({ ...actingScope(org, principal), flowName: flow })));
  }

  /** Rename: every record stays, under the new name; the old name redirects (308) to it. */
  @Put(':org/:flow/rename')
  @ApiSuccess(message)
  async rename(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @Param('flow') flow: string,
    @Body() body: RenameFlowRequestDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    return jsonString(res, 200, await this.commandBus.execute(new RenameFlowCommand({ ...actingScope(org, principal), flowName: flow, newName: body.new_name })));
  }
}
