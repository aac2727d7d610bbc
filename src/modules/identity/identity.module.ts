import { Global, Module } from '@nestjs/common';
import { CredentialVerifier } from '../../common/auth/auth-ports';
import { ApiKeyVerifier } from './api-key-verifier';
import { ApiKeyRepository } from './persistence/api-key.repository';

/** API keys (personal and service-account) and how a raw key becomes a principal. */
@Global()
@Module({
  providers: [ApiKeyRepository, { provide: CredentialVerifier, useClass: ApiKeyVerifier }],
  exports: [ApiKeyRepository, CredentialVerifier],
})
export class IdentityModule {}
