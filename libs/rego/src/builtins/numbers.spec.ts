import { call, callRaw, testContext } from './spec-helpers';
import { makeSet } from '../value';

describe('arithmetic and aggregates', () => {
  it('keeps integers exact and rounds half away from zero', () => {
    expect(callRaw('plus', [18446744073709551617n, 1])).toBe(18446744073709551618n);
    expect(callRaw('mul', [2147483647, 2147483647])).toBe(4611686014132420609n);
    expect(call('div', 1, 4)).toBe(0.25);
    expect(call('rem', -17, 5)).toBe(-2);
    expect(call('round', -2.5)).toBe(-3);
    expect(call('ceil', 1.2)).toBe(2);
    expect(call('floor', -1.2)).toBe(-2);
    expect(callRaw('abs', [-(2n ** 63n)])).toBe(2n ** 63n);
    expect(() => call('div', 1, 0)).toThrow('divide by zero');
    expect(() => call('rem', 1.5, 1)).toThrow('modulo on floating-point number');
  });

  it('subtracts sets and reports mixed operands as OPA does', () => {
    expect(call('minus', makeSet([1, 2, 3]), makeSet([2]))).toEqual([1, 3]);
    expect(() => call('minus', 'a', 1)).toThrow('operand 1 must be one of {number, set} but got string');
    expect(() => call('minus', makeSet([]), 1)).toThrow('operand 2 must be set but got number');
  });

  it('builds ranges', () => {
    expect(call('numbers.range', 3, 1)).toEqual([3, 2, 1]);
    expect(call('numbers.range_step', 0, -10, 5)).toEqual([0, -5, -10]);
    expect(() => call('numbers.range_step', 0, 10, 0)).toThrow('step must be a positive number above zero');
    expect(() => call('numbers.range', 1.5, 2)).toThrow('operand 1 must be integer number but got floating-point number');
  });

  it('gives rand.intn one value per (string, n) within an evaluation', () => {
    const ctx = testContext();
    const a = callRaw('rand.intn', ['k', 100], ctx);
    expect(callRaw('rand.intn', ['k', 100], ctx)).toBe(a);
    expect(a).toBeGreaterThanOrEqual(0);
    expect(a).toBeLessThan(100);
    expect(callRaw('rand.intn', ['k', 0], ctx)).toBe(0);
  });

  it('does bit operations on integers', () => {
    expect(call('bits.and', 12, 10)).toBe(8);
    expect(call('bits.or', 12, 10)).toBe(14);
    expect(call('bits.xor', 12, 10)).toBe(6);
    expect(call('bits.negate', 0)).toBe(-1);
    expect(call('bits.lsh', 1, 4)).toBe(16);
    expect(call('bits.rsh', 16, 4)).toBe(1);
  });

  it('aggregates arrays and sets', () => {
    expect(call('count', 'aå😀')).toBe(3);
    expect(call('count', { a: 1 })).toBe(1);
    expect(call('sum', makeSet([1, 2.5]))).toBe(3.5);
    expect(call('product', [2, 3])).toBe(6);
    expect(call('max', [1, 'a', null])).toBe('a');
    expect(call('min', [])).toBeUndefined();
    expect(call('sort', makeSet([3, 1, 2]))).toEqual([1, 2, 3]);
    expect(call('any', [false, true])).toBe(true);
    expect(call('all', [])).toBe(true);
    expect(() => call('sum', ['a'])).toThrow('operand 1 must be array of numbers but got array containing string');
    expect(() => call('count', 1)).toThrow('operand 1 must be one of {array, object, set, string} but got number');
  });

  it('compares with the total order', () => {
    expect(call('lt', null, false)).toBe(true);
    expect(call('gt', makeSet([]), {})).toBe(true);
    expect(call('equal', 1, 1.0)).toBe(true);
    expect(call('neq', [1], [1])).toBe(false);
  });
});
