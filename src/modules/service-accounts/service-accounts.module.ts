import { Module } from '@nestjs/common';
import { IdentityModule, KeyHolders } from '../identity/identity.module';
import { CreateServiceAccountHandler } from './commands/create-service-account/create-service-account.handler';
import { DeleteServiceAccountHandler } from './commands/delete-service-account/delete-service-account.handler';
import { UpdateServiceAccountHandler } from './commands/update-service-account/update-service-account.handler';
import { ServiceAccountReader } from './persistence/service-account.reader';
import { ServiceAccountRepository } from './persistence/service-account.repository';
import { GetServiceAccountHandler } from './queries/get-service-account/get-service-account.handler';
import { ListServiceAccountsHandler } from './queries/list-service-accounts/list-service-accounts.handler';
import { ServiceAccountNotFoundError } from './service-account.errors';
import { ServiceAccountsController } from './service-accounts.controller';

/**
 * Service accounts of an org: `/service-accounts/{org}...`, their API keys' routes included (the keys are the
 * identity module's: its commands, dispatched with the account as the key holder). Owns `service_accounts`,
 * and registers with identity's KeyHolders how a named account becomes a key owner.
 * Public surface: none.
 */
@Module({
  imports: [IdentityModule],
  controllers: [ServiceAccountsController],
  providers: [
    ServiceAccountRepository,
    ServiceAccountReader,
    {
      provide: 'veritrail:key-holders:service-accounts',
      inject: [KeyHolders, ServiceAccountRepository, ServiceAccountReader],
      useFactory: (holders: KeyHolders, accounts: ServiceAccountRepository, reader: ServiceAccountReader) => {
        holders.registerServiceAccounts({
          async lock(manager, orgId, name) {
            const account = await accounts.lock(manager, orgId, name);
            if (!account) throw new ServiceAccountNotFoundError(name);
            return { serviceAccountId: account.id, orgId };
          },
          async find(orgId, name) {
            const account = await reader.find(orgId, name);
            if (!account) throw new ServiceAccountNotFoundError(name);
            return { serviceAccountId: account.id, orgId };
          },
        });
        return true;
      },
    },
    CreateServiceAccountHandler,
    UpdateServiceAccountHandler,
    DeleteServiceAccountHandler,
    ListServiceAccountsHandler,
    GetServiceAccountHandler,
  ],
})
export class ServiceAccountsModule {}
