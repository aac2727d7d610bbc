import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CurrentOrg } from '../../common/auth/auth.decorators';
import { OrgContext } from '../../common/auth/principal';
import { orgScope } from '../../common/cqrs/org-scoped';
import { DiffEnvironmentsQuery } from './queries/diff-environments/diff-environments.query';
import { DiffEnvironmentsQueryDto } from './queries/diff-environments/diff-environments.request.dto';
import { ApiSuccess } from '../../common/openapi/response-schema';
import { ENV_DIFF_SCHEMA } from './dto/environment.schema';

/** The route `kosli diff snapshots` calls. */
@Controller('env-diff')
export class EnvDiffController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get(':org')
  @ApiSuccess(ENV_DIFF_SCHEMA)
  diff(@CurrentOrg() org: OrgContext, @Query() q: DiffEnvironmentsQueryDto) {
    return this.queryBus.execute(new DiffEnvironmentsQuery({ ...orgScope(org), snappish1: q.snappish1, snappish2: q.snappish2 }));
  }
}
