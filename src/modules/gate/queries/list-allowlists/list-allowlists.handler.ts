import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AllowlistRow, PolicyGate } from '../../../policies/policies.module';
import { ListAllowlistsQuery } from './list-allowlists.query';

@QueryHandler(ListAllowlistsQuery)
export class ListAllowlistsHandler implements IQueryHandler<ListAllowlistsQuery> {
  constructor(private readonly policies: PolicyGate) {}

  execute(query: ListAllowlistsQuery): Promise<AllowlistRow[]> {
    return this.policies.listAllowlists(query.props.orgId);
  }
}
