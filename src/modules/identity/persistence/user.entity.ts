import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('users')
export class UserEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('text') email: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
