import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CurrentOrg, RequiresBeta } from '../../common/auth/auth.decorators';
import { OrgContext } from '../../common/auth/principal';
import { orgScope } from '../../common/cqrs/org-scoped';
import { ApiSuccess } from '../../common/openapi/response-schema';
import { CONTROL_COVERAGE_SCHEMA } from './dto/gate.schema';
import { GetControlCoverageQuery } from './queries/get-control-coverage/get-control-coverage.query';
import { GetControlCoverageQueryDto } from './queries/get-control-coverage/get-control-coverage.request.dto';

/**
 * A control's coverage (beta `controls`, like the control routes): the environments whose attached policies
 * require a decision for it. Served by the gate, which sees both controls' policies and environments.
 */
@Controller('controls')
@RequiresBeta('controls')
export class ControlCoverageController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get(':org/:identifier/coverage')
  @ApiSuccess(CONTROL_COVERAGE_SCHEMA)
  coverage(@CurrentOrg() org: OrgContext, @Param('identifier') identifier: string, @Query() q: GetControlCoverageQueryDto) {
    return this.queryBus.execute(
      new GetControlCoverageQuery({
        ...orgScope(org),
        identifier,
        page: q.page,
        perPage: q.per_page,
        search: q.search,
        covered: q.covered === undefined ? undefined : q.covered === 'true',
      }),
    );
  }
}
