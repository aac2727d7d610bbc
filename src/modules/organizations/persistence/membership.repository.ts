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

  async insert(manager: EntityManager, orgId: string, userId: string, role: Role): Promise<void> {
    await manager.insert(MembershipEntity, { orgId, userId, role, createdAt: new Date() });
  }
}
