import { call } from './spec-helpers';
import { makeSet } from '../value';

describe('sprintf (Go fmt semantics)', () => {
  it('formats verbs as Go does', () => {
    expect(call('sprintf', '%d|%s|%v|%q|%x|%X|%o|%b', [42, 'hi', 'v', 'q"', 255, 'hi', 8, 5])).toBe('42|hi|v|"q\\""|ff|6869|10|101');
    expect(call('sprintf', '%5d|%-5d|%05d|%+d', [1, 2, -3, 4])).toBe('    1|2    |-0003|+4');
    expect(call('sprintf', '%.2f|%e|%g|%8.3f', [3.14159, 1234.5678, 0.000012, 2.5])).toBe('3.14|1.234568e+03|1.2e-05|   2.500');
    expect(call('sprintf', '%.1f %.0f', [0.25, 2.5])).toBe('0.2 2'); // half to even on the exact binary value
  });

  it('passes non-numbers and non-strings as their Rego text', () => {
    expect(call('sprintf', 'hi %v', [['there', 5, 3.14]])).toBe('hi ["there", 5, 3.14]');
    expect(call('sprintf', '%v %v', [makeSet([2, 1]), { b: null }])).toBe('{1, 2} {"b": null}');
    expect(call('sprintf', '%t', [true])).toBe('%!t(string=true)');
    expect(call('sprintf', '%s', [5])).toBe('%!s(int=5)');
  });

  it('prints big integers exactly and floats in Go style', () => {
    expect(call('sprintf', '%v', [123456789123456789123n])).toBe('123456789123456789123');
    expect(call('sprintf', '%s', [1208925819614629174706175n])).toBe('1208925819614629174706175');
    expect(call('sprintf', '%v %v', [1234567.5, 0.1])).toBe('1.2345675e+06 0.1');
  });

  it('reports missing and extra arguments', () => {
    expect(call('sprintf', '%d %d', [1])).toBe('1 %!d(MISSING)');
    expect(call('sprintf', '%d', [1, 'x'])).toBe('1%!(EXTRA string=x)');
    expect(call('sprintf', '100%%', [])).toBe('100%');
  });

  it('quotes non-printable characters as Go\'s strconv does (%q of strings and of integers as runes)', () => {
    expect(call('sprintf', '%q', [1])).toBe("'\\x01'");
    expect(call('sprintf', '%q|%q|%q', [233, 39, 0x110000])).toBe("'é'|'\\''|'\ufffd'");
    expect(call('sprintf', '%q', ['a\u00a0b\u0001\u200bé\t'])).toBe('"a\\u00a0b\\x01\\u200bé\\t"');
    expect(call('sprintf', '%+q|%#q|%#q', ['é', 'a b', 'a\nb'])).toBe('"\\u00e9"|`a b`|"a\\nb"');
  });
});
