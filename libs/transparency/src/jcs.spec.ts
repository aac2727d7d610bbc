import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { canonicalJson, canonicalSha256 } from './jcs';

/** Not a plain object: serialized by its own enumerable members, as the reference implementation does. */
class Wrapper {
  constructor(
    readonly zname: string,
    readonly inner: unknown,
  ) {}
}

describe('canonicalJson (RFC 8785)', () => {
  it('gives the same text as an independent implementation (the canonicalize package) for any JSON value', () => {
    const key = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constantFrom('a', 'B', '\u00e9', '\ud83d\ude00', '10', '1', '', '01', '-1', '__proto__', 'toJSON'));
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.boolean(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.integer(),
        fc.constantFrom(0, -0, 1e21, 1e-7, 5e-324, 2 ** 53, 0.1 + 0.2),
        fc.string({ unit: 'binary' }),
        fc.array(tie('value'), { maxLength: 5 }),
        fc.dictionary(key, tie('value'), { maxKeys: 6 }),
        // Members already in order.
        fc.dictionary(key, tie('value'), { maxKeys: 6 }).map((o) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)))),
        fc.dictionary(key, tie('value'), { maxKeys: 4, noNullPrototype: false }),
        fc.date({ noInvalidDate: true }),
        fc.tuple(fc.string(), tie('value')).map(([name, inner]) => new Wrapper(name, inner)),
      ),
    })).value;
    fc.assert(
      fc.property(json, (value) => {
        expect(canonicalJson(value)).toBe(canonicalize(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('hashes the canonical text as UTF-8 bytes', () => {
    const value = { b: 'caf\u00e9 \ud83d\ude00', a: '\ud800 alone' };
    expect(canonicalSha256(value)).toBe(createHash('sha256').update(Buffer.from(canonicalize(value)!, 'utf8')).digest('hex'));
  });

  it('serializes what toJSON gives (a Date as its ISO string)', () => {
    expect(canonicalJson({ b: new Date('2026-11-27T09:00:00.123Z'), a: [1, 'x'] })).toBe('{"a":[1,"x"],"b":"2026-11-27T09:00:00.123Z"}');
  });

  it.each<[string, unknown, string]>([
    ['undefined in an array', { a: { b: [1, undefined] } }, '$.a.b[1]: undefined has no JSON form'],
    ['NaN', { a: NaN }, '$.a: NaN has no JSON form'],
    ['Infinity', [Infinity], '$[0]: Infinity has no JSON form'],
    ['a function', { f: () => 1 }, '$.f: a function has no JSON form'],
    ['a bigint', { n: BigInt(1) }, '$.n: a bigint has no JSON form'],
    ['undefined alone', undefined, '$: undefined has no JSON form'],
    // eslint-disable-next-line no-sparse-arrays
    ['a hole in an array', { a: [1, , 2] }, '$.a[1]: undefined has no JSON form'],
  ])('refuses a value JSON cannot hold, naming where it is: %s', (_name, value, message) => {
    expect(() => canonicalJson(value)).toThrow(new TypeError(message));
  });
});
