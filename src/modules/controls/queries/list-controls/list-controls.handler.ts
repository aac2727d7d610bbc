import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DEFAULT_PER_PAGE } from '../../../../common/pagination/page-envelope';
import { ControlPage, toControlResponse } from '../../dto/control.response';
import { ControlRepository } from '../../persistence/control.repository';
import { PolicyNamesOfControls } from '../../policy-names';
import { ListControlsQuery } from './list-controls.query';

@QueryHandler(ListControlsQuery)
export class ListControlsHandler implements IQueryHandler<ListControlsQuery> {
  constructor(
    private readonly controls: ControlRepository,
    private readonly policyNames: PolicyNamesOfControls,
  ) {}

  async execute(query: ListControlsQuery): Promise<ControlPage> {
    const { orgId, page = 1, perPage = DEFAULT_PER_PAGE, search, tags = [], archived, sortDirection } = query.props;
    const { rows, total } = await this.controls.page(
      orgId,
      {
        archived: archived === 'true',
        search,
        tags: tags.map((t) => {
          const [, key, value] = t.match(/^([^=:]+)[=:](.*)$/)!;
          return { key, value };
        }),
        descending: sortDirection === 'desc',
      },
      page,
      perPage,
    );
    const names = await this.policyNames.of(orgId, rows.map((r) => r.identifier));
    return {
      controls: rows.map((row) => toControlResponse(row, names.get(row.identifier))),
      page,
      per_page: perPage,
      total_pages: Math.max(1, Math.ceil(total / perPage)),
      total_count: total,
    };
  }
}
