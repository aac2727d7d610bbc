import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CurrentOrg } from '../../common/auth/auth.decorators';
import { OrgContext } from '../../common/auth/principal';
import { orgScope } from '../../common/cqrs/org-scoped';
import { ApiSuccess } from '../../common/openapi/response-schema';
import { ARTIFACT_LIST_SCHEMA, ARTIFACT_SCHEMA, LATEST_COMMIT_SCHEMA } from './dto/artifact.schema';
import { GetArtifactsQuery } from './queries/get-artifacts/get-artifacts.query';
import { GetArtifactsQueryDto } from './queries/get-artifacts/get-artifacts.request.dto';
import { GetLatestCommitQuery } from './queries/get-latest-commit/get-latest-commit.query';
import { GetLatestCommitQueryDto } from './queries/get-latest-commit/get-latest-commit.request.dto';
import { ListArtifactsQuery } from './queries/list-artifacts/list-artifacts.query';
import { ListArtifactsQueryDto, ListFlowArtifactsQueryDto } from './queries/list-artifacts/list-artifacts.request.dto';

/** Artifacts read back (`kosli list artifacts`, `kosli get artifact`); reports are written by the artifacts module. */
@Controller('artifacts')
export class ArtifactCatalogController {
  constructor(private readonly queryBus: QueryBus) {}

  /** The org's artifacts, newest first; filters `flow_name`, `repo_name`. */
  @Get(':org')
  @ApiSuccess(ARTIFACT_LIST_SCHEMA)
  list(@CurrentOrg() org: OrgContext, @Query() q: ListArtifactsQueryDto) {
    return this.queryBus.execute(new ListArtifactsQuery({ ...orgScope(org), flowName: q.flow_name, repoName: q.repo_name, page: q.page, perPage: q.per_page }));
  }

  /** One flow's artifacts, newest first. */
  @Get(':org/:flow')
  @ApiSuccess(ARTIFACT_LIST_SCHEMA)
  listFlow(@CurrentOrg() org: OrgContext, @Param('flow') flow: string, @Query() q: ListFlowArtifactsQueryDto) {
    return this.queryBus.execute(new ListArtifactsQuery({ ...orgScope(org), flowName: flow, page: q.page, perPage: q.per_page }));
  }

  /** The flow's latest report of a fingerprint. */
  @Get(':org/:flow/fingerprint/:fingerprint')
  @ApiSuccess(ARTIFACT_SCHEMA)
  byFingerprint(@CurrentOrg() org: OrgContext, @Param('flow') flow: string, @Param('fingerprint') fingerprint: string, @Query() q: GetArtifactsQueryDto) {
    return this.queryBus.execute(new GetArtifactsQuery({ ...orgScope(org), flowName: flow, by: { fingerprint }, trailName: q.trail }));
  }

  /** The flow's artifacts built from a commit (an array). */
  @Get(':org/:flow/commit_sha/:commit_sha')
  @ApiSuccess(ARTIFACT_LIST_SCHEMA)
  byCommit(@CurrentOrg() org: OrgContext, @Param('flow') flow: string, @Param('commit_sha') commit: string, @Query() q: GetArtifactsQueryDto) {
    return this.queryBus.execute(new GetArtifactsQuery({ ...orgScope(org), flowName: flow, by: { commit }, trailName: q.trail }));
  }

  @Get(':org/:flow/:fingerprint/latest_commit')
  @ApiSuccess(LATEST_COMMIT_SCHEMA)
  latestCommit(@CurrentOrg() org: OrgContext, @Param('flow') flow: string, @Param('fingerprint') fingerprint: string, @Query() q: GetLatestCommitQueryDto) {
    return this.queryBus.execute(new GetLatestCommitQuery({ ...orgScope(org), flowName: flow, fingerprint, branch: q.branch }));
  }
}
