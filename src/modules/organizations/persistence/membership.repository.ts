import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Role } from '../../../common/auth/principal';
import { MembershipEntity } from './membership.entity';

/** Owns `memberships`: a user's role in an org. */
@Injectable()
export class MembershipRepository {
  find(manager: EntityManager, orgId: string, userId: string): Promise<MembershipEntity | null> {
    return manager.findOneBy(MembershipEntity, { orgId, userId });
  }

  /**
   * Adds the membership; false when the user already is a member. ON CONFLICT, not a read first: two
   * concurrent adds of one user both read "not a member", and the second insert then failed on the primary key
   * (a 500) instead of answering 409.
   */
  async insert(manager: EntityManager, orgId: string, userId: string, role: Role): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `INSERT INTO memberships (org_id, user_id, role, created_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (org_id, user_id) DO NOTHING RETURNING org_id`,
      [orgId, userId, role],
    );
    return rows.length > 0;
  }

  /** The orgs the user is a member of, with their names. */
  orgsOf(manager: EntityManager, userId: string): Promise<Array<{ orgId: string; orgName: string }>> {
    return manager.query(
      `SELECT o.id AS "orgId", o.name AS "orgName" FROM memberships m JOIN organizations o ON o.id = m.org_id WHERE m.user_id = $1 ORDER BY o.name`,
      [userId],
    );
  }

  /**
   * Makes `orgId` the user's default organization (and no other); false when the user is not a member. The
   * user's memberships are locked first (in one order, so two calls cannot deadlock): the updates then read the
   * default a concurrent call committed, where on their own they could miss it and leave two defaults. The old
   * default is cleared before the new one is set.
   */
  async setDefault(manager: EntityManager, orgId: string, userId: string): Promise<boolean> {
    const mine: Array<{ org_id: string }> = await manager.query(`SELECT org_id FROM memberships WHERE user_id = $1 ORDER BY org_id FOR UPDATE`, [userId]);
    if (!mine.some((m) => m.org_id === orgId)) return false;
    await manager.query(`UPDATE memberships SET is_default = false WHERE user_id = $1 AND is_default AND org_id <> $2`, [userId, orgId]);
    await manager.query(`UPDATE memberships SET is_default = true WHERE user_id = $1 AND org_id = $2 AND NOT is_default`, [userId, orgId]);
    return true;
  }

  async isDefault(manager: EntityManager, orgId: string, userId: string): Promise<boolean> {
    const rows: Array<{ is_default: boolean }> = await manager.query(`SELECT is_default FROM memberships WHERE org_id = $1 AND user_id = $2`, [orgId, userId]);
    return rows[0]?.is_default ?? false;
  }
}
