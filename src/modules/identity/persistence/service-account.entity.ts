import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Role } from '../../../common/auth/principal';

@Entity('service_accounts')
export class ServiceAccountEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'org_id', type: 'uuid' }) orgId: string;
  @Column('text') name: string;
  @Column({ type: 'text', default: '' }) description: string;
  @Column('text') role: Role;
  @Column({ name: 'created_by', type: 'text', default: '' }) createdBy: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
