import { ActingScope, OrgCommand } from '../../../../common/cqrs/org-scoped';
import type { KeyHolder } from '../../key-holders';

export interface RevokeApiKeyProps extends ActingScope {
  holder: KeyHolder;
  keyId: string;
}

/** Revokes a key: every process refuses it as soon as the revocation commits. */
export class RevokeApiKeyCommand extends OrgCommand<RevokeApiKeyProps, string> {}
