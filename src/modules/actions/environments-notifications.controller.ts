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
import { UpsertEnvironmentActionRequestDto } from './commands/upsert-action/upsert-action.request.dto';
import { createdOrUpdatedAction } from './dto/created-or-updated';
import { GetActionQuery } from './queries/get-action/get-action.query';
import { ListActionsQuery } from './queries/list-actions/list-actions.query';
import { ApiSuccess, arrayOf, message } from '../../common/openapi/response-schema';
import { ACTION_SCHEMA } from './dto/action.schema';

/**
 * The legacy name of environment actions: `/organizations/{org}/environments_notifications`. Only environment
 * actions are seen here; a flow action's number is not found (404), as an unknown one is (spec op 13).
 */
@Controller('organizations')
export class EnvironmentsNotificationsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  @Put(':org/environments_notifications')
  @RequiresRole('admin')
  @ApiSuccess(ACTION_SCHEMA, { status: [201, 200] })
  async upsert(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @Body() body: UpsertEnvironmentActionRequestDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const result = await this.commandBus.execute(UpsertActionCommand.forEnvironments(actingScope(org, principal), body));
    return createdOrUpdatedAction(res, result);
  }

  @Get(':org/environments_notifications')
  @ApiSuccess(arrayOf(ACTION_SCHEMA))
  list(@CurrentOrg() org: OrgContext) {
    return this.queryBus.execute(new ListActionsQuery({ ...orgScope(org), type: 'env' }));
  }

  @Get(':org/environments_notifications/:notification_number')
  @ApiSuccess(ACTION_SCHEMA)
  get(@CurrentOrg() org: OrgContext, @Param('notification_number', ActionNumberPipe) number: number) {
    return this.queryBus.execute(new GetActionQuery({ ...orgScope(org), number, type: 'env' }));
  }

  /** Update environment action `number` (its name may change): 200 with a string body; 404 `Action not found`. */
  @Put(':org/environments_notifications/:notification_number')
  @RequiresRole('admin')
  @Header('Content-Type', 'application/json; charset=utf-8')
  @ApiSuccess(message)
  async update(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @Param('notification_number', ActionNumberPipe) number: number,
    @Body() body: UpsertEnvironmentActionRequestDto,
  ) {
    const result = await this.commandBus.execute(UpsertActionCommand.forEnvironments(actingScope(org, principal), body, number));
    return toJsonString(`Environment notification ${result.action.number} '${result.action.name}' updated`);
  }

  /** Spec op 13: 200 with a string body; 404 `Action not found`; 400 for a number that is not a positive integer. */
  @Delete(':org/environments_notifications/:notification_number')
  @RequiresRole('admin')
  @Header('Content-Type', 'application/json; charset=utf-8')
  @ApiSuccess(message)
  async remove(
    @CurrentOrg() org: OrgContext,
    @CurrentPrincipal() principal: Principal,
    @Param('notification_number', ActionNumberPipe) number: number,
  ) {
    return toJsonString(await this.commandBus.execute(new DeleteActionCommand({ ...actingScope(org, principal), number, type: 'env' })));
  }
}
