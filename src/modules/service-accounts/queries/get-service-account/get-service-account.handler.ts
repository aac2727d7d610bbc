import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ServiceAccountResponse, toServiceAccountResponse } from '../../dto/service-account.response';
import { ServiceAccountNotFoundError } from '../../service-account.errors';
import { ServiceAccountReader } from '../../persistence/service-account.reader';
import { GetServiceAccountQuery } from './get-service-account.query';

@QueryHandler(GetServiceAccountQuery)
export class GetServiceAccountHandler implements IQueryHandler<GetServiceAccountQuery> {
  constructor(private readonly accounts: ServiceAccountReader) {}

  async execute(query: GetServiceAccountQuery): Promise<ServiceAccountResponse> {
    const account = await this.accounts.find(query.props.orgId, query.props.name);
    if (!account) throw new ServiceAccountNotFoundError(query.props.name);
    return toServiceAccountResponse(account);
  }
}
