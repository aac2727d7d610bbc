import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import type { ApiKeyResponse } from '../../dto/api-key.response';
import type { KeyHolder } from '../../key-holders';

export interface GetApiKeyProps extends OrgScope {
  holder: KeyHolder;
  keyId: string;
}

export class GetApiKeyQuery extends OrgQuery<GetApiKeyProps, ApiKeyResponse> {}
