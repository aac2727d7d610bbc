import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';
import type { CreatedApiKeyResponse } from '../../dto/api-key.response';
import type { KeyHolder } from '../../key-holders';

export interface RotateApiKeyProps extends ActingScope {
  holder: KeyHolder;
  keyId: string;
  graceHours?: number;
  expiresAt?: number | null;
}

/** Issues a successor key (same description) and lets the old one work only until the grace period ends. */
export class RotateApiKeyCommand extends OrgCommand<RotateApiKeyProps, CreatedApiKeyResponse> {}
