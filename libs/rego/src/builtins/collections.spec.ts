import { call, callRaw } from './spec-helpers';
import { makeObject, makeSet, RegoSet } from '../value';

describe('arrays, sets and objects', () => {
  it('handles arrays', () => {
    expect(call('array.concat', [1], [2])).toEqual([1, 2]);
    expect(call('array.slice', [1, 2, 3, 4, 5], 3, 99)).toEqual([4, 5]);
    expect(call('array.slice', [1, 2, 3], 2, 1)).toEqual([]);
    expect(call('array.reverse', [1, 2])).toEqual([2, 1]);
    expect(call('array.flatten', [[1, [2]], 3])).toEqual([1, [2], 3]);
    expect(() => call('array.concat', {}, [])).toThrow('operand 1 must be array but got object');
  });

  it('handles sets', () => {
    expect(call('and', makeSet([1, 2]), makeSet([2, 3]))).toEqual([2]);
    expect(call('or', makeSet([1]), makeSet([2]))).toEqual([1, 2]);
    expect(call('intersection', makeSet([makeSet([1, 2]), makeSet([2, 3])]))).toEqual([2]);
    expect(call('union', makeSet([makeSet([1]), makeSet([2])]))).toEqual([1, 2]);
    expect(call('internal.member_2', 1, { a: 1 })).toBe(true);
    expect(call('internal.member_3', 'a', 1, { a: 1 })).toBe(true);
    expect(call('internal.member_3', 0, 'x', ['x'])).toBe(true);
  });

  it('reads and edits objects', () => {
    expect(call('object.get', { a: { b: [{ c: 1 }] } }, ['a', 'b', 0, 'c'], 2)).toBe(1);
    expect(call('object.get', { a: 1 }, 'b', 'd')).toBe('d');
    expect(call('object.get', makeObject([[1, { b: 2 }]]), [1, 'b'], 0)).toBe(2);
    expect(callRaw('object.keys', [makeObject([[1, 'x']])])).toEqual(makeSet([1]));
    expect(call('object.remove', { a: 1, b: 2 }, makeSet(['a']))).toEqual({ b: 2 });
    expect(call('object.filter', { a: 1, b: 2 }, ['a'])).toEqual({ a: 1 });
    expect(call('object.union', { a: { b: 1, c: 2 } }, { a: { b: 3 }, d: 4 })).toEqual({ a: { b: 3, c: 2 }, d: 4 });
    expect(call('object.union_n', [{ a: 1 }, { a: { x: 1 } }, { a: { y: 2 } }])).toEqual({ a: { x: 1, y: 2 } });
    expect(() => call('object.get', 'x', 'a', 1)).toThrow('operand 1 must be object but got string');
  });

  it('checks subsets', () => {
    expect(call('object.subset', { a: 1, b: { c: [1, 2, 3] } }, { b: { c: [2, 3] } })).toBe(true);
    expect(call('object.subset', [1, 2, 3], makeSet([3, 1]))).toBe(true);
    expect(call('object.subset', [1, 2, 3], [1, 3])).toBe(false);
    expect(call('object.subset', makeSet([1, 2]), makeSet([3]))).toBe(false);
  });

  it('filters, removes and patches JSON documents', () => {
    expect(call('json.filter', { a: { b: 1, c: 2 }, d: 3 }, ['a/b', 'd'])).toEqual({ a: { b: 1 }, d: 3 });
    expect(call('json.filter', { a: [0, 1, 2] }, [['a', 1]])).toEqual({ a: [1] });
    expect(call('json.remove', { a: { b: 1, c: 2 } }, makeSet(['a/b']))).toEqual({ a: { c: 2 } });
    expect(
      call('json.patch', { a: [1, 2] }, [
        { op: 'add', path: '/a/-', value: 3 },
        { op: 'replace', path: '/a/0', value: 9 },
        { op: 'move', from: '/a', path: '/b' },
        { op: 'test', path: '/b/0', value: 9 },
      ]),
    ).toEqual({ b: [9, 2, 3] });
    const doc = { foo: makeSet(['a', 'b']) };
    expect(call('json.patch', doc, [{ op: 'remove', path: 'foo/b' }])).toEqual({ foo: ['a'] });
    expect(() => call('json.patch', doc, [{ op: 'add', path: 'foo/d', value: 'e' }])).toThrow();
    expect(callRaw('json.patch', [makeSet([[1]]), [{ op: 'add', path: [[1], 1], value: 2 }]])).toEqual(new RegoSet([[1, 2]]));
  });

  it('walks documents and graphs', () => {
    expect(call('walk', { a: [1] })).toEqual([[[], { a: [1] }], [['a'], [1]], [['a', 0], 1]]);
    expect(call('graph.reachable', { a: ['b'], b: ['c'], c: [], d: ['a'] }, ['a'])).toEqual(['a', 'b', 'c']);
    expect(call('graph.reachable_paths', { a: ['b', 'c'], b: ['c'], c: [] }, ['a'])).toEqual([['a', 'b', 'c'], ['a', 'c']]);
  });
});
