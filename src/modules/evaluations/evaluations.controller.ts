import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { AllowBasicAuth, CurrentOrg, CurrentPrincipal, RequiresBeta } from '../../common/auth/auth.decorators';
import { OrgContext, Principal } from '../../common/auth/principal';
import { actingScope, orgScope } from '../../common/cqrs/org-scoped';
import { ResourceIdPipe } from '../../common/http/resource-id.pipe';
import { CreateEvaluationCommand } from './commands/create-evaluation/create-evaluation.command';
import { CreateEvaluationRequestDto } from './commands/create-evaluation/create-evaluation.request.dto';
import { ReplayEvaluationCommand } from './commands/replay-evaluation/replay-evaluation.command';
import { GetEvaluationQuery } from './queries/get-evaluation/get-evaluation.query';
import { ListEvaluationsQuery } from './queries/list-evaluations/list-evaluations.query';
import { ListEvaluationsQueryDto } from './queries/list-evaluations/list-evaluations.request.dto';
import { ApiSuccess } from '../../common/openapi/response-schema';
import { EVALUATION_PAGE_SCHEMA, EVALUATION_SCHEMA, REPLAY_SCHEMA } from './dto/evaluation.schema';

/** Evaluations (beta `evaluations`): a policy run on the server against trails at one instant. */
@Controller('evaluations')
@RequiresBeta('evaluations')
export class EvaluationsController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  /** Spec op 1. Bearer, or Basic with the API key as user name or password. */
  @Post(':org')
  @HttpCode(201)
  @AllowBasicAuth()
  @ApiSuccess(EVALUATION_SCHEMA)
  create(@CurrentOrg() org: OrgContext, @CurrentPrincipal() principal: Principal, @Body() body: CreateEvaluationRequestDto) {
    return this.commandBus.execute(
      new CreateEvaluationCommand({
        ...actingScope(org, principal),
        trails: body.context.trails,
        files: body.policy.files,
        params: body.params,
        decision: body.decision,
      }),
    );
  }

  @Get(':org')
  @ApiSuccess(EVALUATION_PAGE_SCHEMA)
  list(@CurrentOrg() org: OrgContext, @Query() q: ListEvaluationsQueryDto) {
    return this.queryBus.execute(new ListEvaluationsQuery({ ...orgScope(org), page: q.page, perPage: q.per_page, status: q.status, control: q.control }));
  }

  @Get(':org/:id')
  @ApiSuccess(EVALUATION_SCHEMA)
  get(@CurrentOrg() org: OrgContext, @Param('id', new ResourceIdPipe('Evaluation')) id: string) {
    return this.queryBus.execute(new GetEvaluationQuery({ ...orgScope(org), id }));
  }

  /** Run a stored evaluation again and say whether its input and result are reproduced; writes nothing. */
  @Post(':org/:id/replay')
  @HttpCode(200)
  @ApiSuccess(REPLAY_SCHEMA)
  replay(@CurrentOrg() org: OrgContext, @CurrentPrincipal() principal: Principal, @Param('id', new ResourceIdPipe('Evaluation')) id: string) {
    return this.commandBus.execute(new ReplayEvaluationCommand({ ...actingScope(org, principal), id }));
  }
}
