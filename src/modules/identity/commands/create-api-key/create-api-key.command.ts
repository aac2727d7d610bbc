import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';
import type { CreatedApiKeyResponse } from '../../dto/api-key.response';
import type { KeyHolder } from '../../key-holders';

export interface CreateApiKeyProps extends ActingScope {
  holder: KeyHolder;
  description: string;
  /** Unix seconds as sent (null, undefined or 0: never). */
  expiresAt?: number | null;
}

/** Issues a key for a service account or for the calling user; its value is in the answer and nowhere else. */
export class CreateApiKeyCommand extends OrgCommand<CreateApiKeyProps, CreatedApiKeyResponse> {}
