import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface StoredKey {
  keyId: string;
  name: string;
  publicKey: Buffer;
  active: boolean;
}

/** `log_signing_keys`: every public key that ever signed a checkpoint (rows are never deleted). */
@Injectable()
export class SigningKeyRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Makes `key` the one active key: listed if new, every other key inactive. */
  async activate(key: Omit<StoredKey, 'active'>): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      await m.query(`LOCK TABLE log_signing_keys IN SHARE ROW EXCLUSIVE MODE`);
      await m.query(
        `INSERT INTO log_signing_keys (key_id, name, public_key, active) VALUES ($1, $2, $3, true)
         ON CONFLICT (key_id) DO NOTHING`,
        [key.keyId, key.name, key.publicKey],
      );
      await m.query(`UPDATE log_signing_keys SET active = (key_id = $1) WHERE active <> (key_id = $1)`, [key.keyId]);
    });
  }

  async list(): Promise<StoredKey[]> {
    const rows: Array<{ key_id: string; name: string; public_key: Buffer; active: boolean }> = await this.dataSource.query(
      `SELECT key_id, name, public_key, active FROM log_signing_keys ORDER BY active DESC, created_at DESC, key_id`,
    );
    return rows.map((r) => ({ keyId: r.key_id, name: r.name, publicKey: r.public_key, active: r.active }));
  }
}
