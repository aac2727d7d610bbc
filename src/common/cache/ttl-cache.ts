import { LRUCache } from 'lru-cache';
import { Clock } from '../clock/clock';

/**
 * A small per-process cache for hot, rarely-changing lookups (API key -> principal, org name -> org) so that
 * authentication does not cost three queries per request. Entries live `ttlMs` by the injected clock; at most
 * `maxEntries` are kept (least recently used go first). The writer that changes an entry in this process
 * deletes it at once; other replicas see the change within `ttlMs`.
 *
 * Values may be `null` (a remembered "not found"): lru-cache stores no null, so each value is boxed.
 */
export class TtlCache<K extends {}, V> {
  private readonly entries: LRUCache<K, { value: V }>;

  constructor(clock: Clock, ttlMs: number, maxEntries = 10_000) {
    this.entries = new LRUCache<K, { value: V }>({
      max: maxEntries,
      ttl: ttlMs,
      // Ask the clock on every read: lru-cache otherwise reuses one reading for 1 ms, which a test clock
      // that jumps forward would not see.
      ttlResolution: 0,
      perf: clock,
    });
  }

  get(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  set(key: K, value: V): void {
    this.entries.set(key, { value });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  /** Deletes every entry whose value matches (a change that several entries may hold, such as an owner's keys). */
  deleteWhere(matches: (value: V, key: K) => boolean): void {
    for (const [key, boxed] of this.entries.entries()) if (matches(boxed.value, key)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
