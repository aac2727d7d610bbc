import { Module } from '@nestjs/common';
import { CredentialVerifier } from '../../common/auth/auth-ports';
import { EvidenceLogModule } from '../evidence-log/evidence-log.module';
import { ApiKeyVerifier } from './api-key-verifier';
import { CreateApiKeyHandler } from './commands/create-api-key/create-api-key.handler';
import { RevokeApiKeyHandler } from './commands/revoke-api-key/revoke-api-key.handler';
import { RotateApiKeyHandler } from './commands/rotate-api-key/rotate-api-key.handler';
import { CredentialEvents } from './credential-events';
import { CredentialEventsController } from './credential-events.controller';
import { KeyHolders } from './key-holders';
import { PersonalApiKeysController } from './personal-api-keys.controller';
import { ApiKeyReader } from './persistence/api-key.reader';
import { ApiKeyRepository } from './persistence/api-key.repository';
import { CredentialEventRepository } from './persistence/credential-event.repository';
import { UserRepository } from './persistence/user.repository';
import { GetApiKeyHandler } from './queries/get-api-key/get-api-key.handler';
import { GetCredentialEventHandler } from './queries/get-credential-event/get-credential-event.handler';
import { ListApiKeysHandler } from './queries/list-api-keys/list-api-keys.handler';
import { UserAccounts } from './user-accounts';

/**
 * Users, API keys (personal and service-account) and how a raw key becomes a principal. Owns `users` and
 * `api_keys` and `credential_events` (append-only, logged); serves `/api-keys/{org}...` (the caller's own keys)
 * and `/credential-events/{org}/{event_id}`.
 * Public surface: CredentialVerifier (the port the authentication guard uses), UserAccounts, and for the
 * service-accounts module: KeyHolders (where it registers how a named account becomes a key owner), the API-key
 * commands and queries its key routes dispatch, ApiKeyVerifier (to drop cached keys), CREDENTIALS_CHANNEL and CredentialEvents (to record, and log, a change
 * of a service account).
 */
@Module({
  imports: [EvidenceLogModule],
  controllers: [PersonalApiKeysController, CredentialEventsController],
  providers: [
    ApiKeyRepository,
    ApiKeyReader,
    UserRepository,
    UserAccounts,
    KeyHolders,
    ApiKeyVerifier,
    { provide: CredentialVerifier, useExisting: ApiKeyVerifier },
    CreateApiKeyHandler,
    RevokeApiKeyHandler,
    RotateApiKeyHandler,
    ListApiKeysHandler,
    GetApiKeyHandler,
    CredentialEventRepository,
    CredentialEvents,
    GetCredentialEventHandler,
  ],
  exports: [CredentialVerifier, UserAccounts, KeyHolders, ApiKeyVerifier, CredentialEvents],
})
export class IdentityModule {}

export { OPERATOR, UserAccounts } from './user-accounts';
export { CredentialEvents } from './credential-events';
export { ApiKeyVerifier } from './api-key-verifier';
export { KeyHolders, serviceAccountHolder } from './key-holders';
export type { ServiceAccountKeyOwners } from './key-holders';
export type { KeyOwner } from './persistence/api-key.repository';
export { CREDENTIALS_CHANNEL } from './domain/credential-change';
export { CreateApiKeyCommand } from './commands/create-api-key/create-api-key.command';
export { CreateApiKeyRequestDto } from './commands/create-api-key/create-api-key.request.dto';
export { RevokeApiKeyCommand } from './commands/revoke-api-key/revoke-api-key.command';
export { RotateApiKeyCommand } from './commands/rotate-api-key/rotate-api-key.command';
export { RotateApiKeyRequestDto } from './commands/rotate-api-key/rotate-api-key.request.dto';
export { GetApiKeyQuery } from './queries/get-api-key/get-api-key.query';
export { ListApiKeysQuery } from './queries/list-api-keys/list-api-keys.query';
export { API_KEY_SCHEMA, CREATED_API_KEY_SCHEMA } from './dto/identity.schema';
