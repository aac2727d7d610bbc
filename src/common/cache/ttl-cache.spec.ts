import { Clock } from '../clock/clock';
import { TtlCache } from './ttl-cache';

class ManualClock extends Clock {
  // lru-cache treats a start time of 0 as "no TTL", so the manual clock starts where a real one would.
  constructor(public time = 1_700_000_000_000) {
    super();
  }
  now(): number {
    return this.time;
  }
}

describe('TtlCache', () => {
  it('keeps an entry for exactly its TTL by the injected clock, then forgets it', () => {
    const clock = new ManualClock();
    const cache = new TtlCache<string, string>(clock, 5_000);
    cache.set('k', 'v');
    clock.time += 5_000;
    expect(cache.get('k')).toBe('v');
    clock.time += 1;
    expect(cache.get('k')).toBeUndefined();
  });

  it('sees a clock that jumps right after a read (no reuse of an earlier reading)', () => {
    const clock = new ManualClock();
    const cache = new TtlCache<string, string>(clock, 10);
    cache.set('k', 'v');
    expect(cache.get('k')).toBe('v');
    clock.time += 11;
    expect(cache.get('k')).toBeUndefined();
  });

  it('remembers null (a "not found") as a value, distinct from a miss', () => {
    const cache = new TtlCache<string, string | null>(new ManualClock(), 1_000);
    cache.set('missing', null);
    expect(cache.get('missing')).toBeNull();
    expect(cache.get('never-set')).toBeUndefined();
  });

  it('is bounded: the least recently used entry goes first', () => {
    const cache = new TtlCache<string, number>(new ManualClock(), 60_000, 2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.get('a');
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([1, undefined, 3]);
  });

  it('delete and clear drop entries at once', () => {
    const cache = new TtlCache<string, number>(new ManualClock(), 60_000);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.delete('a');
    expect(cache.get('a')).toBeUndefined();
    cache.clear();
    expect(cache.get('b')).toBeUndefined();
  });

  it('deletes the entries whose value matches, and only those', () => {
    const cache = new TtlCache<string, { owner: string } | null>(new ManualClock(), 5_000);
    cache.set('a', { owner: 'x' });
    cache.set('b', { owner: 'y' });
    cache.set('c', null);
    cache.deleteWhere((value) => value?.owner === 'x');
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, { owner: 'y' }, null]);
  });
});
