import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Principal } from '../../common/auth/principal';
import { ForbiddenError, NotFoundError } from '../../common/errors/app-error';
import { KeyOwner } from './persistence/api-key.repository';
import { ServiceAccountReader } from './persistence/service-account.reader';
import { ServiceAccountRepository } from './persistence/service-account.repository';

/**
 * Whose keys a key route is about: a service account of the org (named in the path), or the caller's own
 * personal keys. Built by the controllers, resolved by the handlers (KeyHolders).
 */
export type KeyHolder = { kind: 'service_account'; name: string } | { kind: 'caller'; principal: Principal };

export const serviceAccountHolder = (name: string): KeyHolder => ({ kind: 'service_account', name });
export const callerHolder = (principal: Principal): KeyHolder => ({ kind: 'caller', principal });

export class ServiceAccountNotFoundError extends NotFoundError {
  constructor(name: string) {
    super(`Service account '${name}' not found`);
  }
}

export class ApiKeyNotFoundError extends NotFoundError {
  constructor() {
    super('API key not found');
  }
}

/** Key ids are UUIDs; anything else names no key (404, like an unknown id). */
export const KEY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Injectable()
export class KeyHolders {
  constructor(
    private readonly accounts: ServiceAccountRepository,
    private readonly accountReader: ServiceAccountReader,
  ) {}

  /** The owner, for a write: a service account is locked until the transaction ends (so it cannot vanish). */
  async lock(manager: EntityManager, orgId: string, holder: KeyHolder): Promise<KeyOwner> {
    if (holder.kind === 'caller') return personal(holder.principal);
    const account = await this.accounts.lock(manager, orgId, holder.name);
    if (!account) throw new ServiceAccountNotFoundError(holder.name);
    return { serviceAccountId: account.id, orgId };
  }

  /** The owner, for a read. */
  async find(orgId: string, holder: KeyHolder): Promise<KeyOwner> {
    if (holder.kind === 'caller') return personal(holder.principal);
    const account = await this.accountReader.find(orgId, holder.name);
    if (!account) throw new ServiceAccountNotFoundError(holder.name);
    return { serviceAccountId: account.id, orgId };
  }
}

function personal(principal: Principal): KeyOwner {
  if (principal.kind !== 'user') {
    throw new ForbiddenError('Service accounts have no personal API keys; use /service-accounts/{org}/{name}/api-keys');
  }
  return { userId: principal.id };
}
