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

  /** Makes `orgId` the user's default organization (and no other); false when the user is not a member. */
  async setDefault(manager: EntityManager, orgId: string, userId: string): Promise<boolean> {
    const [rows]: [Array<{ org_id: string }>, number] = await manager.query(
      `UPDATE memberships SET is_default = (org_id = $1) WHERE user_id = $2 AND (is_default OR org_id = $1) RETURNING org_id`,
      [orgId, userId],
    );
    return rows.some((r) => r.org_id === orgId);
  }

  async isDefault(manager: EntityManager, orgId: string, userId: string): Promise<boolean> {
    const rows: Array<{ is_default: boolean }> = await manager.query(`SELECT is_default FROM memberships WHERE org_id = $1 AND user_id = $2`, [orgId, userId]);
    return rows[0]?.is_default ?? false;
  }
}
