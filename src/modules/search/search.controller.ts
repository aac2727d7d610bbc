import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CurrentOrg } from '../../common/auth/auth.decorators';
import { OrgContext } from '../../common/auth/principal';
import { orgScope } from '../../common/cqrs/org-scoped';
import { ApiSuccess } from '../../common/openapi/response-schema';
import { SEARCH_SCHEMA } from './dto/search.schema';
import { SearchShaQuery } from './queries/search-sha/search-sha.query';

@Controller('search')
export class SearchController {
  constructor(private readonly queryBus: QueryBus) {}

  /** `kosli search <sha>`: artifacts whose fingerprint or commit starts with the value, across flows. */
  @Get(':org/sha/:search_value')
  @ApiSuccess(SEARCH_SCHEMA)
  sha(@CurrentOrg() org: OrgContext, @Param('search_value') value: string) {
    return this.queryBus.execute(new SearchShaQuery({ ...orgScope(org), value }));
  }
}
