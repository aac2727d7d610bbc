import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { UserEntity } from './user.entity';

/** Users are global (one person, many orgs), keyed by e-mail compared case-insensitively. */
export async function findOrCreateUser(manager: EntityManager, email: string): Promise<UserEntity> {
  const normalized = email.trim().toLowerCase();
  await manager.query(
    `INSERT INTO users (id, email, created_at) VALUES ($1, $2, now()) ON CONFLICT (email) DO NOTHING`,
    [randomUUID(), normalized],
  );
  return manager.findOneByOrFail(UserEntity, { email: normalized });
}
