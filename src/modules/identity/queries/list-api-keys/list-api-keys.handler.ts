import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../common/clock/clock';
import { ApiKeyResponse, toApiKeyResponse } from '../../dto/api-key.response';
import { KeyHolders } from '../../key-holders';
import { ApiKeyReader } from '../../persistence/api-key.reader';
import { ListApiKeysQuery } from './list-api-keys.query';

@QueryHandler(ListApiKeysQuery)
export class ListApiKeysHandler implements IQueryHandler<ListApiKeysQuery> {
  constructor(
    private readonly holders: KeyHolders,
    private readonly keys: ApiKeyReader,
    private readonly clock: Clock,
  ) {}

  async execute(query: ListApiKeysQuery): Promise<ApiKeyResponse[]> {
    const owner = await this.holders.find(query.props.orgId, query.props.holder);
    return (await this.keys.list(owner, new Date(this.clock.now()))).map(toApiKeyResponse);
  }
}
