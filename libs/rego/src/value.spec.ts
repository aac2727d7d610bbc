import {
  compare,
  equals,
  hashKey,
  makeObject,
  makeSet,
  objGet,
  objHas,
  objKeys,
  RegoObject,
  RegoSet,
  sortedValues,
  toJSON,
  toJSONText,
  typeName,
  isObject,
  Value,
} from './value';

describe('value model', () => {
  it('names types, treating bigint as number', () => {
    expect([null, true, 1, 2n ** 70n, 's', [], {}, makeSet([])].map((v) => typeName(v as Value))).toEqual([
      'null', 'boolean', 'number', 'number', 'string', 'array', 'object', 'set',
    ]);
    expect(isObject(new RegoObject())).toBe(true);
    expect(isObject(makeSet([]))).toBe(false);
  });

  it('orders values across types as OPA does', () => {
    const vals: Value[] = [makeSet([1]), { a: 1 }, [1], 'a', 1, false, null];
    expect(vals.slice().sort(compare)).toEqual([null, false, 1, 'a', [1], { a: 1 }, makeSet([1])]);
    expect(compare([1, 2], [1, 2, 0])).toBe(-1);
    expect(compare({ a: 1 }, { b: 0 })).toBe(-1);
    expect(compare({ a: 2 }, { a: 1, b: 0 })).toBe(1); // key, then its value, pairwise
    expect(compare(makeSet([3]), makeSet([1, 4]))).toBe(1);
    expect(compare(2n ** 64n, 1.5)).toBe(1);
  });

  it('compares strings in code point order (as Go bytes)', () => {
    expect(compare('\uffff', '\u{1F600}')).toBe(-1);
    expect(compare('a\u{1F600}', 'a\uffff')).toBe(1);
    expect(compare('\ue000', '\ud7ff')).toBe(1);
    expect(['\u{1F600}', '\uffff', 'z'].sort(compare)).toEqual(['z', '\uffff', '\u{1F600}']);
    expect(compare('b', 'a')).toBe(1);
  });

  it('treats equal numbers of either representation as equal', () => {
    expect(equals(2 ** 60, 2n ** 60n)).toBe(true);
    expect(hashKey(2 ** 60)).toBe(hashKey(2n ** 60n));
    expect(hashKey(1)).toBe(hashKey(1.0));
    expect(hashKey('1')).not.toBe(hashKey(1));
    expect(hashKey('\u0000n1')).not.toBe(hashKey(1));
  });

  it('compares composites structurally', () => {
    expect(equals({ a: [1, makeSet(['x'])] }, { a: [1, makeSet(['x'])] })).toBe(true);
    expect(equals({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(hashKey({ a: 1, b: 2 })).toBe(hashKey({ b: 2, a: 1 }));
    expect(makeSet([{ a: 1 }, { a: 1 }]).size).toBe(1);
  });

  it('guards prototype keys', () => {
    const o = JSON.parse('{"__proto__": 1}');
    expect(objGet(o, '__proto__')).toBe(1);
    expect(objGet({}, 'constructor')).toBeUndefined();
    expect(objHas({}, 'toString')).toBe(false);
    const m = makeObject([['__proto__', 2]]);
    expect(objKeys(m)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(m)).toBe(Object.prototype);
  });

  it('makes plain objects for string keys and RegoObject otherwise', () => {
    expect(makeObject([['a', 1]])).toEqual({ a: 1 });
    const ro = makeObject([[1, 'x'], ['a', 2]]);
    expect(ro).toBeInstanceOf(RegoObject);
    expect(objGet(ro, 1)).toBe('x');
    expect(objGet(ro, 'a')).toBe(2);
  });

  it('converts to JSON as OPA prints', () => {
    expect(toJSON(makeSet([3, 1, 2]))).toEqual([1, 2, 3]);
    expect(toJSON(makeObject([[1, 'x']]))).toEqual({ '1': 'x' });
    const plain = { a: [1, 2] };
    expect(toJSON(plain)).toBe(plain); // no copy when nothing changes
    expect(toJSONText({ b: 1, a: makeSet(['y', 'x']), c: 2n ** 70n })).toBe(
      '{"a":["x","y"],"b":1,"c":1180591620717411303424}',
    );
    expect(sortedValues(new RegoSet(['b', 'a']))).toEqual(['a', 'b']);
  });
});
