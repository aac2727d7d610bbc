import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ServiceAccountResponse, toServiceAccountResponse } from '../../dto/service-account.response';
import { ServiceAccountReader } from '../../persistence/service-account.reader';
import { ListServiceAccountsQuery } from './list-service-accounts.query';

@QueryHandler(ListServiceAccountsQuery)
export class ListServiceAccountsHandler implements IQueryHandler<ListServiceAccountsQuery> {
  constructor(private readonly accounts: ServiceAccountReader) {}

  async execute(query: ListServiceAccountsQuery): Promise<ServiceAccountResponse[]> {
    return (await this.accounts.list(query.props.orgId)).map(toServiceAccountResponse);
  }
}
