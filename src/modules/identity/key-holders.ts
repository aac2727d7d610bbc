import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Principal } from '../../common/auth/principal';
import { ForbiddenError, NotFoundError } from '../../common/errors/app-error';
import { KeyOwner } from './persistence/api-key.repository';

/**
 * Whose keys a key route is about: a service account of the org (named in the path), or the caller's own
 * personal keys. Built by the controllers, resolved by the handlers (KeyHolders).
 */
export type KeyHolder = { kind: 'service_account'; name: string } | { kind: 'caller'; principal: Principal };

export const serviceAccountHolder = (name: string): KeyHolder => ({ kind: 'service_account', name });
export const callerHolder = (principal: Principal): KeyHolder => ({ kind: 'caller', principal });

export class ApiKeyNotFoundError extends NotFoundError {
  constructor() {
    super('API key not found');
  }
}

/** Key ids are UUIDs; anything else names no key (404, like an unknown id). */
export const KEY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * How a service account named in a path becomes a key owner: the service-accounts module, which owns the
 * accounts, registers it (`KeyHolders.registerServiceAccounts`); identity never reads their table itself.
 * Both throw the 404 of an unknown account.
 */
export interface ServiceAccountKeyOwners {
  /** For a write: the account is locked until the transaction ends (so it cannot vanish). */
  lock(manager: EntityManager, orgId: string, name: string): Promise<KeyOwner>;
  /** For a read. */
  find(orgId: string, name: string): Promise<KeyOwner>;
}

@Injectable()
export class KeyHolders {
  private serviceAccounts: ServiceAccountKeyOwners | null = null;

  registerServiceAccounts(owners: ServiceAccountKeyOwners): void {
    if (this.serviceAccounts) throw new Error('service-account key owners are registered twice');
    this.serviceAccounts = owners;
  }

  /** The owner, for a write. */
  async lock(manager: EntityManager, orgId: string, holder: KeyHolder): Promise<KeyOwner> {
    if (holder.kind === 'caller') return personal(holder.principal);
    return this.accounts().lock(manager, orgId, holder.name);
  }

  /** The owner, for a read. */
  async find(orgId: string, holder: KeyHolder): Promise<KeyOwner> {
    if (holder.kind === 'caller') return personal(holder.principal);
    return this.accounts().find(orgId, holder.name);
  }

  private accounts(): ServiceAccountKeyOwners {
    if (!this.serviceAccounts) throw new Error('no module registered service-account key owners (ServiceAccountsModule)');
    return this.serviceAccounts;
  }
}

function personal(principal: Principal): KeyOwner {
  if (principal.kind !== 'user') {
    throw new ForbiddenError('Service accounts have no personal API keys; use /service-accounts/{org}/{name}/api-keys');
  }
  return { userId: principal.id };
}
