import { Injectable } from '@nestjs/common';
import { CredentialVerifier } from '../../common/auth/auth-ports';
import { Principal, Role } from '../../common/auth/principal';
import { TtlCache } from '../../common/cache/ttl-cache';
import { Clock } from '../../common/clock/clock';
import { hashApiKey } from './domain/api-key-secret';
import { ApiKeyRepository, KeyOwnerRow } from './persistence/api-key.repository';

/** last_used_at is written at most this often per key: it is for audits, not for rate accounting. */
const TOUCH_INTERVAL_MS = 60_000;

@Injectable()
export class ApiKeyVerifier extends CredentialVerifier {
  private readonly cache: TtlCache<string, KeyOwnerRow | null>;
  private readonly touched: TtlCache<string, true>;

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
  ) {
    super();
    this.cache = new TtlCache(clock, 5_000);
    this.touched = new TtlCache(clock, TOUCH_INTERVAL_MS);
  }

  async verify(rawKey: string): Promise<Principal | null> {
    if (rawKey.length > 256) return null;
    const hash = hashApiKey(rawKey);
    const cacheKey = hash.toString('base64');
    let row = this.cache.get(cacheKey);
    if (row === undefined) {
      row = (await this.keys.findOwnerByHash(hash)) ?? null;
      this.cache.set(cacheKey, row);
    }
    if (!row || row.revoked_at) return null;
    if (row.expires_at && row.expires_at.getTime() <= this.clock.now()) return null;
    if (!this.touched.get(row.key_id)) {
      this.touched.set(row.key_id, true);
      // Not awaited: a failed audit-timestamp write must not fail the request.
      this.keys.touch(row.key_id).catch(() => this.touched.delete(row!.key_id));
    }
    if (row.user_id) {
      return { kind: 'user', id: row.user_id, name: row.email ?? '', keyId: row.key_id };
    }
    return {
      kind: 'service_account',
      id: row.service_account_id!,
      name: row.sa_name ?? '',
      keyId: row.key_id,
      orgId: row.sa_org_id ?? undefined,
      role: (row.sa_role as Role) ?? undefined,
    };
  }
}
