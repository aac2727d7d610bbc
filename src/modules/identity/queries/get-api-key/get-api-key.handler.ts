import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../common/clock/clock';
import { ApiKeyResponse, toApiKeyResponse } from '../../dto/api-key.response';
import { ApiKeyNotFoundError, KEY_ID, KeyHolders } from '../../key-holders';
import { ApiKeyReader } from '../../persistence/api-key.reader';
import { GetApiKeyQuery } from './get-api-key.query';

@QueryHandler(GetApiKeyQuery)
export class GetApiKeyHandler implements IQueryHandler<GetApiKeyQuery> {
  constructor(
    private readonly holders: KeyHolders,
    private readonly keys: ApiKeyReader,
    private readonly clock: Clock,
  ) {}

  async execute(query: GetApiKeyQuery): Promise<ApiKeyResponse> {
    const owner = await this.holders.find(query.props.orgId, query.props.holder);
    const key = KEY_ID.test(query.props.keyId) ? await this.keys.find(owner, query.props.keyId, new Date(this.clock.now())) : null;
    if (!key) throw new ApiKeyNotFoundError();
    return toApiKeyResponse(key);
  }
}
