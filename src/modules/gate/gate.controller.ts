import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { CurrentOrg, CurrentPrincipal, RequiresRole } from '../../common/auth/auth.decorators';
import { OrgContext, Principal } from '../../common/auth/principal';
import { actingScope, orgScope } from '../../common/cqrs/org-scoped';
import { ApiSuccess } from '../../common/openapi/response-schema';
import { AllowArtifactCommand } from './commands/allow-artifact/allow-artifact.command';
import { AllowArtifactRequestDto } from './commands/allow-artifact/allow-artifact.request.dto';
import { ADMISSION_REVIEW_SCHEMA, ALLOWED_SCHEMA, ALLOWLIST_SCHEMA, ASSERT_ENVIRONMENTS_SCHEMA, ASSERT_SCHEMA } from './dto/gate.schema';
import { listOf } from './query-fields';
import { AssertArtifactQuery } from './queries/assert-artifact/assert-artifact.query';
import { AssertArtifactQueryDto } from './queries/assert-artifact/assert-artifact.request.dto';
import { AssertArtifactEnvironmentsQuery } from './queries/assert-artifact-environments/assert-artifact-environments.query';
import { AssertArtifactEnvironmentsQueryDto } from './queries/assert-artifact-environments/assert-artifact-environments.request.dto';
import { ListAllowlistsQuery } from './queries/list-allowlists/list-allowlists.query';
import { ReviewAdmissionQuery } from './queries/review-admission/review-admission.query';
import { admissionSettings, AdmissionSettings, ReviewAdmissionQueryDto } from './queries/review-admission/review-admission.request.dto';

/** The deployment gate: allow-lists, `kosli assert artifact`, and the Kubernetes admission webhook. */
@Controller()
export class GateController {
  constructor(
    private readonly commandBus: CommandBus,
    private readonly queryBus: QueryBus,
  ) {}

  @Put('allowlists/:org/:env')
  @HttpCode(201)
  @ApiSuccess(ALLOWED_SCHEMA, { status: [201] })
  allow(@CurrentOrg() org: OrgContext, @CurrentPrincipal() principal: Principal, @Param('env') envName: string, @Body() body: AllowArtifactRequestDto) {
    return this.commandBus.execute(
      new AllowArtifactCommand({
        ...actingScope(org, principal),
        envName,
        artifactName: body.artifact_name,
        fingerprint: body.artifact_fingerprint,
        description: body.description,
      }),
    );
  }

  @Get('allowlists/:org')
  @ApiSuccess(ALLOWLIST_SCHEMA)
  allowlists(@CurrentOrg() org: OrgContext) {
    return this.queryBus.execute(new ListAllowlistsQuery(orgScope(org)));
  }

  @Get('asserts/:org/fingerprint/:fingerprint')
  @ApiSuccess(ASSERT_SCHEMA)
  assert(@CurrentOrg() org: OrgContext, @Param('fingerprint') fingerprint: string, @Query() q: AssertArtifactQueryDto) {
    return this.queryBus.execute(
      new AssertArtifactQuery({ ...orgScope(org), fingerprint, flowName: q.flow_name, environmentName: q.environment_name, policyNames: listOf(q.policy_name) }),
    );
  }

  /** The answer of the route above with `environment_name`, for every environment not archived, in one request (the web interface's artifact page). */
  @Get('asserts/:org/fingerprint/:fingerprint/environments')
  @ApiSuccess(ASSERT_ENVIRONMENTS_SCHEMA)
  assertEnvironments(@CurrentOrg() org: OrgContext, @Param('fingerprint') fingerprint: string, @Query() q: AssertArtifactEnvironmentsQueryDto) {
    return this.queryBus.execute(new AssertArtifactEnvironmentsQuery({ ...orgScope(org), fingerprint, flowName: q.flow_name }));
  }

  /**
   * The API server's call. It writes nothing, so any member key (a reader's too) may be the webhook's
   * credential; the answer is 200 with an AdmissionReview whatever the decision. The settings come from the
   * query, or (the form a ValidatingWebhookConfiguration can hold) from the path: see `admissionSettings`.
   */
  @Post('admission/:org/:env')
  @HttpCode(200)
  @RequiresRole('reader')
  @ApiSuccess(ADMISSION_REVIEW_SCHEMA)
  admission(@CurrentOrg() org: OrgContext, @Param('env') envName: string, @Query() q: ReviewAdmissionQueryDto, @Body() body: unknown) {
    return this.review(org, envName, admissionSettings(q), body);
  }

  @Post('admission/:org/:env/:mode')
  @HttpCode(200)
  @RequiresRole('reader')
  @ApiSuccess(ADMISSION_REVIEW_SCHEMA)
  admissionWithMode(@CurrentOrg() org: OrgContext, @Param('env') envName: string, @Param('mode') mode: string, @Query() q: ReviewAdmissionQueryDto, @Body() body: unknown) {
    return this.review(org, envName, admissionSettings(q, { mode }), body);
  }

  @Post('admission/:org/:env/:mode/exempt/*namespaces')
  @HttpCode(200)
  @RequiresRole('reader')
  @ApiSuccess(ADMISSION_REVIEW_SCHEMA)
  admissionWithExemptions(
    @CurrentOrg() org: OrgContext,
    @Param('env') envName: string,
    @Param('mode') mode: string,
    @Param('namespaces') namespaces: string[],
    @Query() q: ReviewAdmissionQueryDto,
    @Body() body: unknown,
  ) {
    return this.review(org, envName, admissionSettings(q, { mode, exempt: namespaces }), body);
  }

  private review(org: OrgContext, envName: string, settings: AdmissionSettings, body: unknown) {
    return this.queryBus.execute(new ReviewAdmissionQuery({ ...orgScope(org), envName, ...settings, body }));
  }
}
