import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CurrentOrg } from '../../common/auth/auth.decorators';
import { OrgContext } from '../../common/auth/principal';
import { orgScope } from '../../common/cqrs/org-scoped';
import { GetSnapshotQuery } from './queries/get-snapshot/get-snapshot.query';
import { ListSnapshotsQuery } from './queries/list-snapshots/list-snapshots.query';
import { ListSnapshotsQueryDto } from './queries/list-snapshots/list-snapshots.request.dto';
import { ApiSuccess } from '../../common/openapi/response-schema';
import { SNAPSHOT_LIST_SCHEMA, SNAPSHOT_SCHEMA } from './dto/environment.schema';

@Controller('snapshots')
export class SnapshotsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get(':org/:env')
  @ApiSuccess(SNAPSHOT_LIST_SCHEMA)
  list(@CurrentOrg() org: OrgContext, @Param('env') env: string, @Query() q: ListSnapshotsQueryDto) {
    return this.queryBus.execute(
      new ListSnapshotsQuery({
        ...orgScope(org),
        envName: env,
        interval: q.interval,
        oldestFirst: q.reverse?.toLowerCase() === 'true',
        page: q.page,
        perPage: q.per_page,
      }),
    );
  }

  /** `{snapshot_expression}`: the trail-moment grammar (`N`, `#N`, `-N`, `~N`, `latest`, `@{...}`). */
  @Get(':org/:env/:snapshot_expression')
  @ApiSuccess(SNAPSHOT_SCHEMA)
  get(@CurrentOrg() org: OrgContext, @Param('env') env: string, @Param('snapshot_expression') expression: string) {
    return this.queryBus.execute(new GetSnapshotQuery({ ...orgScope(org), envName: env, expression }));
  }
}
