import { compile } from './index';
import { BigDec, decCompare, parseDec } from './decimal';
import { parseNumber } from './parser/parser';

const value = (src: string, ref = 'data.p.v'): unknown => compile({ 'p.rego': `package p\nimport rego.v1\n${src}` }).evalValue(ref).value;

describe('exact decimals (numbers float64 cannot hold as written)', () => {
  it('only literals no float denotes become BigDecs; the common ones stay floats and integers', () => {
    for (const t of ['3.5', '0.1', '1e-1', '100.0', '123456789012345.5', '1.5e-300', '0.000000000000001', '2.5e-310']) {
      expect(typeof parseNumber(t)).toBe('number');
    }
    expect(parseNumber('1e30')).toBe(10n ** 30n);
    expect(parseNumber('1e299')).toBe(10n ** 299n);
    for (const t of ['0.1234567890123456789', '1e-400', '2e308', '1e400', '3.0000000000000000001']) {
      expect(parseNumber(t)).toBeInstanceOf(BigDec);
    }
    expect(parseNumber('0.0e-500')).toBe(0);
  });

  it('compare exactly, across magnitudes float64 does not reach', () => {
    const order = (a: string, b: string) => decCompare(parseDec(a)!, parseDec(b)!);
    expect(order('1e400', '1e399')).toBe(1);
    expect(order('1e-400', '0')).toBe(1);
    expect(order('-1e-400', '0')).toBe(-1);
    expect(order('0.1234567890123456789', '0.1234567890123456788')).toBe(1);
    expect(order('12.50', '1.25e1')).toBe(0);
    expect(order('1e1000000000', '1e999999999')).toBe(1);
    expect(value('v := [1e400 > 1e399, 1e-400 > 0, 0.1234567890123456789 > 0.1234567890123456788, 3.0000000000000000001 > 3, -1e-400 < 0]')).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
  });

  it('are numbers to every builtin and keep equality, set membership and object keys exact', () => {
    expect(value('v := [is_number(1e-400), type_name(2e308), count({0.1234567890123456789, 0.1234567890123456788}), 1e400 in {1e400}]')).toEqual([
      true,
      'number',
      2,
      true,
    ]);
    expect(value('v := {1e-400: "tiny"}[1e-400]')).toBe('tiny');
    expect(value('v := 1e-400 == 0')).toBe(false);
    expect(value('x := 1e-400\nv := [x.text, x.coef, count([k | some k, _ in x]), is_object(x), object.keys({"a": x})]')).toBeUndefined();
    expect(value('x := 1e-400\nv := [is_object(x), [k | some k, _ in x], [k | walk(x, [k, _])]]')).toEqual([false, [], [[]]]);
    expect(value('v := [x | some x in [2e308, 1e-400, 0, 1]]')).toEqual([Infinity, 0, 0, 1]);
  });

  it('+ - * / compute on the exact decimals, and a result a float denotes is a float again', () => {
    expect(value('v := 0.1234567890123456789 - 0.1234567890123456788 == 1e-19')).toBe(true);
    expect(value('v := 1e-400 * 1e400')).toBe(1);
    expect(value('v := (2e308 / 2e308) + 0.5')).toBe(1.5);
    expect(value('v := 1e400 + 1 > 1e400')).toBe(false); // below the precision kept (34 digits), as with OPA's big floats
    expect(value('v := sum([1e-400, 1e-400]) > 1e-400')).toBe(true);
    expect(value('v := 3.0000000000000000001 - 3 == 1e-19')).toBe(true);
  });

  it('print as written: sprintf %v of a number beyond float64 is its text, json.marshal keeps it', () => {
    expect(value('v := sprintf("hi %v", [2e308])')).toBe('hi 2e308');
    expect(value('v := json.marshal([1e400, 0.1234567890123456789])')).toBe('[1e400,0.1234567890123456789]');
    expect(value('v := sprintf("%v", [-2e308])')).toBe('-2e308');
  });
});
