import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { UserEntity } from './user.entity';

/** Owns `users`. Users are global (one person, many orgs), keyed by e-mail compared case-insensitively. */
@Injectable()
export class UserRepository {
  async findOrCreate(manager: EntityManager, email: string): Promise<UserEntity> {
    const normalized = email.trim().toLowerCase();
    await manager.query(`INSERT INTO users (id, email, created_at) VALUES ($1, $2, now()) ON CONFLICT (email) DO NOTHING`, [
      randomUUID(),
      normalized,
    ]);
    return manager.findOneByOrFail(UserEntity, { email: normalized });
  }
}
