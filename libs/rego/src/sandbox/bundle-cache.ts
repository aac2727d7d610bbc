/**
 * A small LRU of compiled bundles (or their compile errors) keyed by bundle digest, one per worker, so sending
 * the same policy again costs a hash of its files instead of a compile.
 */
export class LruCache<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly capacity: number) {}

  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      // Re-insert to mark as most recently used (Map keeps insertion order).
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > Math.max(1, this.capacity)) {
      const oldest = this.map.keys().next().value as string;
      this.map.delete(oldest);
    }
  }

  get size(): number {
    return this.map.size;
  }
}
