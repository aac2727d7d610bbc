import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Role } from '../../../common/auth/principal';

@Entity('memberships')
export class MembershipEntity {
  @PrimaryColumn({ name: 'org_id', type: 'uuid' }) orgId: string;
  @PrimaryColumn({ name: 'user_id', type: 'uuid' }) userId: string;
  @Column('text') role: Role;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
