import { OrgQuery, OrgScope } from '../../../../common/cqrs/org-scoped';
import type { ApiKeyResponse } from '../../dto/api-key.response';
import type { KeyHolder } from '../../key-holders';

export interface ListApiKeysProps extends OrgScope {
  holder: KeyHolder;
}

/** The holder's keys that still work (neither revoked nor expired); never their values. */
export class ListApiKeysQuery extends OrgQuery<ListApiKeysProps, ApiKeyResponse[]> {}
