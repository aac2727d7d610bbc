import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('organizations')
export class OrganizationEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('text') name: string;
  @Column('text') region: string;
  @Column({ type: 'text', array: true, default: () => "'{}'" }) features: string[];
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
