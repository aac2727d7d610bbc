import { Body, Controller, Delete, Get, Header, Param, Put, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { CurrentOrg, CurrentPrincipal, RequiresRole } from '../../common/auth/auth.decorators';
import { OrgContext, Principal } from '../../common/auth/principal';
import { actingScope, orgScope } from '../../common/cqrs/org-scoped';
import { toJsonString } from '../../common/http/json-string';
import { ActionNumberPipe } from './action-number.pipe';
import { DeleteActionCommand } from './commands/delete-action/delete-action.command';
import { UpsertActionCommand } from './commands/upsert-action/upsert-action.command';
import { UpsertEnvironmentActionRequestDto, UpsertFlowActionRequestDto } from './commands/upsert-action/upsert-action.request.dto';
import { createdOrUpdatedAction } from './dto/created-or-updated';
import { ActionTarget } from './domain/action-target';
import { GetActionQuery } from './queries/get-action/get-action.query';
import { ListActionsQuery } from './queries/list-actions/list-actions.query';
import { ListDeliveriesQuery } from './queries/list-deliveries/list-deliveries.query';
import { ApiSuccess, arrayOf, message } from '../../common/openapi/response-schema';
import { ACTION_SCHEMA, DELIVERY_ATTEMPT_SCHEMA } from './dto/action.schema';

/** Actions (notification rules): upsert by name, list (spec op 11), read, delete, and their delivery attempts. */
@Controller('actions')
export class ActionsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  /** 201 when created, 200 when an action of that name was updated; the body is the action. */
  @Put(':org/environments')
  @RequiresRole('admin')
  @ApiSuccess(ACTION_SCHEMA, { status: [201, 200] })
  async upsertEnvironmentAction(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpsertEnvironmentActionRequestDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const result = await this.commandBus.execute(UpsertActionCommand.forEnvironments(actingScope(org, principal), body));
    return createdOrUpdatedAction(res, result);
  }

  @Put(':org/flows')
  @RequiresRole('admin')
  @ApiSuccess(ACTION_SCHEMA, { status: [201, 200] })
  async upsertFlowAction(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpsertFlowActionRequestDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const result = await this.commandBus.execute(
      new UpsertActionCommand({
        ...actingScope(org, principal),
        type: 'flow',
        name: body.name,
        targets: body.targets as ActionTarget[],
        triggers: body.triggers,
        scopes: body.flows,
      }),
    );
    return createdOrUpdatedAction(res, result);
  }

  @Get(':org')
  @ApiSuccess(arrayOf(ACTION_SCHEMA))
  list(@CurrentOrg() org: OrgContext) {
    return this.queryBus.execute(new ListActionsQuery({ ...orgScope(org), type: null }));
  }

  @Get(':org/:number')
  @ApiSuccess(ACTION_SCHEMA)
  get(@CurrentOrg() org: OrgContext, @Param('number', ActionNumberPipe) number: number) {
    return this.queryBus.execute(new GetActionQuery({ ...orgScope(org), number, type: null }));
  }

  @Get(':org/:number/deliveries')
  @ApiSuccess(arrayOf(DELIVERY_ATTEMPT_SCHEMA))
  deliveries(@CurrentOrg() org: OrgContext, @Param('number', ActionNumberPipe) number: number) {
    return this.queryBus.execute(new ListDeliveriesQuery({ ...orgScope(org), number }));
  }

  @Delete(':org/:number')
  @RequiresRole('admin')
  @Header('Content-Type', 'application/json; charset=utf-8')
  @ApiSuccess(message)
  async remove(@CurrentOrg() org: OrgContext, @CurrentPrincipal() principal: Principal, @Param('number', ActionNumberPipe) number: number) {
    return toJsonString(await this.commandBus.execute(new DeleteActionCommand({ ...actingScope(org, principal), number, type: null })));
  }
}
