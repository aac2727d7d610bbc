import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiKeyRepository } from './persistence/api-key.repository';
import { UserRepository } from './persistence/user.repository';

export interface EnrolledUser {
  userId: string;
  email: string;
  /** A new personal API key: shown once, only its hash is stored. */
  apiKey: string;
}

/** The identity module's public surface for other modules: users and their personal keys. */
@Injectable()
export class UserAccounts {
  constructor(
    private readonly users: UserRepository,
    private readonly keys: ApiKeyRepository,
  ) {}

  /** The user with this e-mail (created on first use), in the caller's transaction. */
  async findOrCreateUser(manager: EntityManager, email: string): Promise<{ id: string; email: string }> {
    const user = await this.users.findOrCreate(manager, email);
    return { id: user.id, email: user.email };
  }

  /** Issues a personal API key for a user, in the caller's transaction. */
  async issuePersonalKey(manager: EntityManager, userId: string, description: string): Promise<string> {
    const issued = await this.keys.issue(manager, { userId }, description);
    return issued.key;
  }
}
