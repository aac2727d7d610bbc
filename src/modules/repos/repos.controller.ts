import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CurrentOrg } from '../../common/auth/auth.decorators';
import { OrgContext } from '../../common/auth/principal';
import { GetRepoQuery } from './queries/get-repo/get-repo.query';
import { orgScope } from '../../common/cqrs/org-scoped';
import { JoinedPathPipe } from '../../common/http/joined-path.pipe';

@Controller('repos')
export class ReposController {
  constructor(private readonly queryBus: QueryBus) {}

  /**
   * Repo names contain a slash (`owner/repo`): both `owner%2Frepo` and a raw `owner/repo` reach this route.
   * Other `/repos/{org}/<literal>` routes (tags) must be registered before this module.
   */
  @Get(':org/*name')
  get(@CurrentOrg() org: OrgContext, @Param('name', JoinedPathPipe) name: string) {
    return this.queryBus.execute(new GetRepoQuery({ ...orgScope(org), name }));
  }
}
