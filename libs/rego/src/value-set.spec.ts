import { equals, hashKey, makeSet, RegoObject, RegoSet, shallowHash, sortedValues, toJSON, Value } from './value';

describe('RegoSet of composites (structural hash + equality)', () => {
  it('deduplicates equal composites whatever their key order or number representation', () => {
    const s = makeSet([{ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }, [2 ** 60], [2n ** 60n], { a: 1, b: [1, 3] }]);
    expect(s.size).toBe(3);
    expect(s.has({ b: [1, 3], a: 1 })).toBe(true);
    expect(s.has({ a: 1 })).toBe(false);
    expect(s.has([2n ** 60n])).toBe(true);
  });

  it('hashes equal values alike across object classes and depths', () => {
    const ro = new RegoObject().set('a', 1).set('b', { c: 2 });
    expect(shallowHash(ro, 1)).toBe(shallowHash({ b: { c: 2 }, a: 1 }, 1));
    expect(shallowHash(-0, 1)).toBe(shallowHash(0, 1));
    expect(shallowHash('x'.repeat(40), 1)).toBe(shallowHash('x'.repeat(40), 1));
  });

  it('tells apart names that differ in any one character, up to 64 characters', () => {
    // Trail ids like "bench/t12" and "bench/t22": with too few characters sampled, a set of objects keyed by
    // them overflowed its hash buckets and fell back to serialising every element.
    const hashes = new Set<number>();
    for (let i = 0; i < 100; i++) hashes.add(shallowHash(`bench/t${i}`, 0));
    expect(hashes.size).toBe(100);
    const long = 'x'.repeat(63);
    expect(shallowHash(long + 'a', 0)).not.toBe(shallowHash(long + 'b', 0));
    expect(shallowHash('a' + long, 0)).not.toBe(shallowHash('b' + long, 0));
    expect(shallowHash('x'.repeat(31) + 'a' + 'x'.repeat(32), 0)).not.toBe(shallowHash('x'.repeat(31) + 'b' + 'x'.repeat(32), 0));
  });

  it('stays correct when many distinct values hash alike (differing only deep inside)', () => {
    const vals: Value[] = [];
    for (let i = 0; i < 50; i++) vals.push({ k: { deep: { i } } }, { k: { deep: { i } } });
    const s = makeSet(vals);
    expect(s.size).toBe(50);
    for (let i = 0; i < 50; i++) expect(s.has({ k: { deep: { i } } })).toBe(true);
    expect(s.has({ k: { deep: { i: 50 } } })).toBe(false);
  });

  it('mixes scalars and composites; sorted order and JSON as before', () => {
    const s = makeSet([{ a: 2 }, 'x', 1, [0], { a: 1 }, 1.0, 'x']);
    expect(s.size).toBe(5);
    expect(toJSON(s)).toEqual([1, 'x', [0], { a: 1 }, { a: 2 }]);
    expect(sortedValues(s)).toEqual(s.sorted());
  });

  it('compares sets by content, not by how they are indexed', () => {
    const a = makeSet([{ x: 1 }, 'y']);
    const b = makeSet(['y', { x: 1 }]);
    void b.map; // switches b to canonical keys
    expect(equals(a, b)).toBe(true);
    expect(equals(makeSet([a]), makeSet([b]))).toBe(true);
    expect(hashKey(a)).toBe(hashKey(b));
  });

  it('keeps working through the canonical map (set builtins fill fresh sets through it)', () => {
    const a = makeSet([{ x: 1 }, { x: 2 }]);
    const out = new RegoSet();
    for (const [k, v] of a.map) out.map.set(k, v);
    expect(out.size).toBe(2);
    expect(out.has({ x: 2 })).toBe(true);
    out.add({ x: 2 }).add({ x: 3 });
    expect(out.size).toBe(3);
    expect(out.sorted()).toEqual([{ x: 1 }, { x: 2 }, { x: 3 }]);
    expect([...out].length).toBe(3);
  });
});

describe('RegoSet iteration', () => {
  it('visits each element once even if the set turns canonical meanwhile', () => {
    const s = makeSet(['a', { x: 1 }, 'b', [2]]);
    const seen: Value[] = [];
    s.some((v) => {
      void s.map;
      seen.push(v);
      return false;
    });
    expect(seen).toHaveLength(4);
    expect(s.has({ x: 1 }) && s.has([2]) && s.has('a')).toBe(true);
  });
});
