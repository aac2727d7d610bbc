import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { PolicyResponse } from '../../dto/policy.response';
import { PolicyReader } from '../../persistence/policy.reader';
import { ListPoliciesQuery } from './list-policies.query';

@QueryHandler(ListPoliciesQuery)
export class ListPoliciesHandler implements IQueryHandler<ListPoliciesQuery> {
  constructor(private readonly reader: PolicyReader) {}

  execute(query: ListPoliciesQuery): Promise<PolicyResponse[]> {
    return this.reader.list(query.props.orgId);
  }
}
