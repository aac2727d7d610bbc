import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
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
import { ApiErrors, ApiSuccess } from '../../common/openapi/response-schema';
import { GetEvaluationAttestationQuery } from './queries/get-evaluation-attestation/get-evaluation-attestation.query';
import { GetEvaluationPolicyQuery } from './queries/get-evaluation-policy/get-evaluation-policy.query';
import { DSSE_ENVELOPE_SCHEMA, EVALUATION_PAGE_SCHEMA, EVALUATION_POLICY_SCHEMA, EVALUATION_SCHEMA, REPLAY_SCHEMA } from './dto/evaluation.schema';

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

  /**
   * The signed decision: a DSSE envelope (in-toto Statement v1, SLSA VSA v1) served as its RFC 8785 canonical
   * JSON, whose SHA-256 is the record_sha256 of the evaluation's log entry.
   */
  @Get(':org/:id/attestation')
  @ApiSuccess(DSSE_ENVELOPE_SCHEMA)
  @ApiErrors({ 404: 'unknown evaluation, or one that failed or is still pending (the message says which): it has no signed statement' })
  async attestation(
    @CurrentOrg() org: OrgContext,
    @Param('id', new ResourceIdPipe('Evaluation')) id: string,
    @Res({ passthrough: true }) res: Response,
  ) {
    const canonical: string = await this.queryBus.execute(new GetEvaluationAttestationQuery({ ...orgScope(org), id }));
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    return canonical;
  }

  /** The policy bundle the evaluation ran, its files as stored, so that a reader can see (and re-hash) what decided. */
  @Get(':org/:id/policy')
  @ApiSuccess(EVALUATION_POLICY_SCHEMA)
  @ApiErrors({ 404: 'unknown evaluation' })
  policy(@CurrentOrg() org: OrgContext, @Param('id', new ResourceIdPipe('Evaluation')) id: string) {
    return this.queryBus.execute(new GetEvaluationPolicyQuery({ ...orgScope(org), id }));
  }

  /** Run a stored evaluation again and say whether its input and result are reproduced; writes nothing. */
  @Post(':org/:id/replay')
  @HttpCode(200)
  @ApiSuccess(REPLAY_SCHEMA)
  replay(@CurrentOrg() org: OrgContext, @CurrentPrincipal() principal: Principal, @Param('id', new ResourceIdPipe('Evaluation')) id: string) {
    return this.commandBus.execute(new ReplayEvaluationCommand({ ...actingScope(org, principal), id }));
  }
}
