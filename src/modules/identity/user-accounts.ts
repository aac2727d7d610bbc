import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CredentialEvents } from './credential-events';
import { toCreatedApiKeyResponse } from './dto/api-key.response';
import { ApiKeyRepository } from './persistence/api-key.repository';
import { UserRepository } from './persistence/user.repository';

export interface EnrolledUser {
  userId: string;
  email: string;
  /** A new personal API key: shown once, only its hash is stored. */
  apiKey: string;
}

/** Who acts on the operator's routes (the ADMIN_TOKEN holder), as credential events name an actor. */
export const OPERATOR = 'operator';

/** The identity module's public surface for other modules: users and their personal keys. */
@Injectable()
export class UserAccounts {
  constructor(
    private readonly users: UserRepository,
    private readonly keys: ApiKeyRepository,
    private readonly events: CredentialEvents,
  ) {}

  /** The user with this e-mail (created on first use), in the caller's transaction. */
  async findOrCreateUser(manager: EntityManager, email: string): Promise<{ id: string; email: string }> {
    const user = await this.users.findOrCreate(manager, email);
    return { id: user.id, email: user.email };
  }

  /**
   * Issues a user's personal API key for their membership of an org (the org's first admin, a member added by
   * the operator), in the caller's transaction, and records it as a credential event (`api_key_created`, logged
   * like every key change) of that org and of every other org the user is a member of: a personal key acts in
   * each, and every key that can write in an org is in its evidence log.
   */
  async issuePersonalKey(
    manager: EntityManager,
    user: { id: string; email: string },
    org: { orgId: string; orgName: string },
    actor: string,
  ): Promise<string> {
    const now = new Date();
    const issued = await this.keys.issue(manager, { userId: user.id }, `personal key for ${org.orgName}`, null, now);
    const { key: _value, ...metadata } = toCreatedApiKeyResponse(issued); // never the key's value
    await this.events.recordForUser(manager, user.id, org, { type: 'api_key_created', service_account: null, user: user.email, key: metadata, actor }, now);
    return issued.key;
  }

  /**
   * When a user joins an org (in the transaction that adds the membership, before any key is issued for it): each
   * of the user's live personal keys acts in the org from now on, so each is recorded there (`api_key_admitted`).
   */
  async admitKeys(manager: EntityManager, user: { id: string; email: string }, org: { orgId: string; orgName: string }, actor: string): Promise<void> {
    const now = new Date();
    for (const key of await this.keys.liveOfUser(manager, user.id, now)) {
      await this.events.record(manager, org, { type: 'api_key_admitted', service_account: null, user: user.email, key, actor }, now);
    }
  }
}
