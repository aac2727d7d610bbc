import { Injectable } from '@nestjs/common';
import { CredentialVerifier } from '../../common/auth/auth-ports';
import { Principal, Role } from '../../common/auth/principal';
import { TtlCache } from '../../common/cache/ttl-cache';
import { Clock } from '../../common/clock/clock';
import { PgNotifications } from '../../database/pg-notifications';
import { hashApiKey } from './domain/api-key-secret';
import { CREDENTIALS_CHANNEL, CredentialChange, decodeCredentialChange } from './domain/credential-change';
import { ApiKeyRepository, KeyOwnerRow } from './persistence/api-key.repository';

/** last_used_at is written at most this often per key: it is for audits, not for rate accounting. */
const TOUCH_INTERVAL_MS = 60_000;
/** How long a verified key is trusted without asking the database, while change notifications arrive. */
const CACHE_TTL_MS = 5_000;

/**
 * Raw API key -> principal. Keys are looked up by their sha256 and the answer is cached per process, so the hot
 * path does not touch the database; revocation still takes effect everywhere at once:
 * - every change that affects a cached answer (revoke, rotate, a service account's role or deletion) sends a
 *   notification on the credentials channel in its own transaction, and each process drops the matching
 *   entries when it arrives (milliseconds after the commit);
 * - while this process is not receiving notifications (its listening connection is down, or not up yet) the
 *   cache is not used at all, and it is emptied when listening resumes, since notifications sent in between
 *   are lost;
 * - a lookup that was in flight when a notification arrived does not cache its (possibly stale) answer.
 * Expiry is checked on every request against the injected clock.
 */
@Injectable()
export class ApiKeyVerifier extends CredentialVerifier {
  private readonly cache: TtlCache<string, KeyOwnerRow | null>;
  private readonly touched: TtlCache<string, true>;
  /** Bumped by every change notification and every loss of the listening connection. */
  private generation = 0;

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
    private readonly notifications: PgNotifications,
  ) {
    super();
    this.cache = new TtlCache(clock, CACHE_TTL_MS);
    this.touched = new TtlCache(clock, TOUCH_INTERVAL_MS);
    notifications.on(CREDENTIALS_CHANNEL, (payload) => this.changed(decodeCredentialChange(payload)));
    notifications.onStateChange(() => {
      this.generation++;
      this.cache.clear();
    });
  }

  async verify(rawKey: string): Promise<Principal | null> {
    if (rawKey.length > 256) return null;
    return this.verifyHash(hashApiKey(rawKey));
  }

  /** The SHA-256 of a raw key, which the key table and a web session keep: the same answer as `verify`. */
  hashOf(rawKey: string): Buffer {
    return hashApiKey(rawKey);
  }

  /** As `verify`, for a key known only by its hash (a web session, which never keeps the key itself). */
  async verifyHash(hash: Buffer): Promise<Principal | null> {
    const cacheKey = hash.toString('base64');
    const trusted = this.notifications.listening;
    let row = trusted ? this.cache.get(cacheKey) : undefined;
    if (row === undefined) {
      const generation = this.generation;
      row = (await this.keys.findOwnerByHash(hash)) ?? null;
      if (trusted && generation === this.generation && this.notifications.listening) this.cache.set(cacheKey, row);
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

  /**
   * Drops what this process cached about a change it has just committed, without waiting for the change's
   * notification to come back (other processes get it from the notification).
   */
  forget(change: CredentialChange): void {
    this.changed(change);
  }

  private changed(change: CredentialChange | null): void {
    this.generation++;
    if (!change) {
      this.cache.clear();
      return;
    }
    const column = { key: 'key_id', service_account: 'service_account_id', user: 'user_id' } as const;
    this.cache.deleteWhere((row) => row !== null && row[column[change.kind]] === change.id);
  }
}
