import { Module } from '@nestjs/common';
import { CredentialVerifier } from '../../common/auth/auth-ports';
import { ApiKeyVerifier } from './api-key-verifier';
import { CreateApiKeyHandler } from './commands/create-api-key/create-api-key.handler';
import { CreateServiceAccountHandler } from './commands/create-service-account/create-service-account.handler';
import { DeleteServiceAccountHandler } from './commands/delete-service-account/delete-service-account.handler';
import { RevokeApiKeyHandler } from './commands/revoke-api-key/revoke-api-key.handler';
import { RotateApiKeyHandler } from './commands/rotate-api-key/rotate-api-key.handler';
import { UpdateServiceAccountHandler } from './commands/update-service-account/update-service-account.handler';
import { KeyHolders } from './key-holders';
import { PersonalApiKeysController } from './personal-api-keys.controller';
import { ApiKeyReader } from './persistence/api-key.reader';
import { ApiKeyRepository } from './persistence/api-key.repository';
import { ServiceAccountReader } from './persistence/service-account.reader';
import { ServiceAccountRepository } from './persistence/service-account.repository';
import { UserRepository } from './persistence/user.repository';
import { GetApiKeyHandler } from './queries/get-api-key/get-api-key.handler';
import { GetServiceAccountHandler } from './queries/get-service-account/get-service-account.handler';
import { ListApiKeysHandler } from './queries/list-api-keys/list-api-keys.handler';
import { ListServiceAccountsHandler } from './queries/list-service-accounts/list-service-accounts.handler';
import { ServiceAccountsController } from './service-accounts.controller';
import { UserAccounts } from './user-accounts';

/**
 * Users, service accounts, API keys (personal and service-account) and how a raw key becomes a principal.
 * Owns `users`, `api_keys` and `service_accounts`; serves `/service-accounts/{org}...` and `/api-keys/{org}...`.
 * Public surface: CredentialVerifier (the port the authentication guard uses) and UserAccounts.
 */
@Module({
  controllers: [ServiceAccountsController, PersonalApiKeysController],
  providers: [
    ApiKeyRepository,
    ApiKeyReader,
    ServiceAccountRepository,
    ServiceAccountReader,
    UserRepository,
    UserAccounts,
    KeyHolders,
    ApiKeyVerifier,
    { provide: CredentialVerifier, useExisting: ApiKeyVerifier },
    CreateServiceAccountHandler,
    UpdateServiceAccountHandler,
    DeleteServiceAccountHandler,
    CreateApiKeyHandler,
    RevokeApiKeyHandler,
    RotateApiKeyHandler,
    ListServiceAccountsHandler,
    GetServiceAccountHandler,
    ListApiKeysHandler,
    GetApiKeyHandler,
  ],
  exports: [CredentialVerifier, UserAccounts],
})
export class IdentityModule {}

export { UserAccounts } from './user-accounts';
