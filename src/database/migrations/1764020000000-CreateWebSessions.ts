import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sessions of the web interface (/ui): a personal API key exchanged for a cookie. Only hashes are kept: of the
 * cookie's token (the primary key), of its anti-forgery token, and of the API key (the same SHA-256 the key table
 * keeps), so that every request asks the key table whether the key is still valid and a revoked key ends its
 * sessions at once. Not a tenant table: a person's key acts in each of their orgs.
 */
export class CreateWebSessions1764020000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE web_sessions (
        token_hash bytea PRIMARY KEY,
        key_hash bytea NOT NULL,
        csrf_hash bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        ended_at timestamptz
      )`);
    await q.query(`CREATE INDEX web_sessions_expires_at_idx ON web_sessions (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE web_sessions`);
  }
}
