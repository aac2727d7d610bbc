import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface WebSessionRow {
  key_hash: Buffer;
  csrf_hash: Buffer;
  expires_at: Date;
}

/** The one class that writes `web_sessions`. */
@Injectable()
export class WebSessionRepository {
  constructor(private readonly dataSource: DataSource) {}

  async create(row: { tokenHash: Buffer; keyHash: Buffer; csrfHash: Buffer; expiresAt: Date }): Promise<void> {
    // Ended and expired sessions of any key go at the same time: the table holds only what can still be used.
    await this.dataSource.query(`DELETE FROM web_sessions WHERE expires_at < now() - interval '1 day' OR ended_at < now() - interval '1 day'`);
    await this.dataSource.query(
      `INSERT INTO web_sessions (token_hash, key_hash, csrf_hash, expires_at) VALUES ($1, $2, $3, $4)`,
      [row.tokenHash, row.keyHash, row.csrfHash, row.expiresAt],
    );
  }

  /** A session not ended by sign-out (expiry is checked by the caller, against its clock). */
  async findOpen(tokenHash: Buffer): Promise<WebSessionRow | undefined> {
    const rows: WebSessionRow[] = await this.dataSource.query(
      `SELECT key_hash, csrf_hash, expires_at FROM web_sessions WHERE token_hash = $1 AND ended_at IS NULL`,
      [tokenHash],
    );
    return rows[0];
  }

  async end(tokenHash: Buffer): Promise<void> {
    await this.dataSource.query(`UPDATE web_sessions SET ended_at = now() WHERE token_hash = $1 AND ended_at IS NULL`, [tokenHash]);
  }
}
