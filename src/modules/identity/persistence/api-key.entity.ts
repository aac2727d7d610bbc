import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('api_keys')
export class ApiKeyEntity {
  @PrimaryColumn('uuid') id: string;
  @Column({ name: 'key_hash', type: 'bytea' }) keyHash: Buffer;
  @Column({ name: 'user_id', type: 'uuid', nullable: true }) userId: string | null;
  @Column({ name: 'service_account_id', type: 'uuid', nullable: true }) serviceAccountId: string | null;
  /** The service account's org (null for a personal key): part of the key the account is found by. */
  @Column({ name: 'service_account_org_id', type: 'uuid', nullable: true }) serviceAccountOrgId: string | null;
  @Column({ type: 'text', default: '' }) description: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true }) expiresAt: Date | null;
  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true }) lastUsedAt: Date | null;
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true }) revokedAt: Date | null;
}
