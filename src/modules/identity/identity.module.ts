import { Module } from '@nestjs/common';
import { CredentialVerifier } from '../../common/auth/auth-ports';
import { ApiKeyVerifier } from './api-key-verifier';
import { ApiKeyRepository } from './persistence/api-key.repository';
import { UserRepository } from './persistence/user.repository';
import { UserAccounts } from './user-accounts';

/**
 * Users, API keys (personal and service-account) and how a raw key becomes a principal. Owns `users`,
 * `api_keys` and `service_accounts`.
 * Public surface: CredentialVerifier (the port the authentication guard uses) and UserAccounts.
 */
@Module({
  providers: [ApiKeyRepository, UserRepository, UserAccounts, { provide: CredentialVerifier, useClass: ApiKeyVerifier }],
  exports: [CredentialVerifier, UserAccounts],
})
export class IdentityModule {}

export { UserAccounts } from './user-accounts';
