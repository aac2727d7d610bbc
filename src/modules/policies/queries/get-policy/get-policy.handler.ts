import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '../../../../common/errors/app-error';
import { PolicyResponse } from '../../dto/policy.response';
import { PolicyReader } from '../../persistence/policy.reader';
import { GetPolicyQuery } from './get-policy.query';

@QueryHandler(GetPolicyQuery)
export class GetPolicyHandler implements IQueryHandler<GetPolicyQuery> {
  constructor(private readonly reader: PolicyReader) {}

  async execute(query: GetPolicyQuery): Promise<PolicyResponse> {
    const [policy] = await this.reader.list(query.props.orgId, query.props.name);
    if (!policy) throw new NotFoundError(`Policy '${query.props.name}' not found`);
    return policy;
  }
}
