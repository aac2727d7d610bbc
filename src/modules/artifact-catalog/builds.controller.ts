import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CurrentOrg } from '../../common/auth/auth.decorators';
import { OrgContext } from '../../common/auth/principal';
import { orgScope } from '../../common/cqrs/org-scoped';
import { ApiSuccess } from '../../common/openapi/response-schema';
import { BUILD_PAGE_SCHEMA } from './dto/artifact.schema';
import { ListBuildsQuery } from './queries/list-builds/list-builds.query';
import { ListBuildsQueryDto } from './queries/list-builds/list-builds.request.dto';

@Controller('builds')
export class BuildsController {
  constructor(private readonly queryBus: QueryBus) {}

  /** Builds (artifact reports) of the org in a time window, newest first; filters `repo_id`, `repo_name`. */
  @Get(':org')
  @ApiSuccess(BUILD_PAGE_SCHEMA)
  list(@CurrentOrg() org: OrgContext, @Query() q: ListBuildsQueryDto) {
    return this.queryBus.execute(
      new ListBuildsQuery({ ...orgScope(org), page: q.page, perPage: q.per_page, repoId: q.repo_id, repoName: q.repo_name, startTs: q['start-ts'], endTs: q['end-ts'] }),
    );
  }
}
