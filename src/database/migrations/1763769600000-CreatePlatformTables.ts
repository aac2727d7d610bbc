import { MigrationInterface, QueryRunner } from 'typeorm';

/** Organizations, users, memberships, service accounts and API keys: what authentication needs. */
export class CreatePlatformTables1763769600000 implements MigrationInterface {
  name = 'CreatePlatformTables1763769600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE organizations (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        region text NOT NULL CHECK (region IN ('eu', 'us')),
        features text[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT organizations_name_key UNIQUE (name)
      )`);
    await q.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY,
        email text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT users_email_key UNIQUE (email)
      )`);
    await q.query(`
      CREATE TABLE memberships (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('admin', 'member', 'snapshotter', 'reader')),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, user_id)
      )`);
    await q.query(`
      CREATE TABLE service_accounts (
        id uuid PRIMARY KEY,
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        role text NOT NULL CHECK (role IN ('admin', 'member', 'snapshotter', 'reader')),
        created_by text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT service_accounts_org_name_key UNIQUE (org_id, name)
      )`);
    await q.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY,
        key_hash bytea NOT NULL,
        user_id uuid REFERENCES users(id) ON DELETE CASCADE,
        service_account_id uuid REFERENCES service_accounts(id) ON DELETE CASCADE,
        description text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz,
        last_used_at timestamptz,
        revoked_at timestamptz,
        CONSTRAINT api_keys_hash_key UNIQUE (key_hash),
        CONSTRAINT api_keys_one_owner CHECK ((user_id IS NULL) <> (service_account_id IS NULL))
      )`);
    await q.query(`CREATE INDEX api_keys_user_idx ON api_keys (user_id)`);
    await q.query(`CREATE INDEX api_keys_service_account_idx ON api_keys (service_account_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE api_keys`);
    await q.query(`DROP TABLE service_accounts`);
    await q.query(`DROP TABLE memberships`);
    await q.query(`DROP TABLE users`);
    await q.query(`DROP TABLE organizations`);
  }
}
