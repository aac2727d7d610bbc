import { add, div, mul, numberToString, parseNumber, rem, sub } from './number';

describe('numbers', () => {
  it('keeps integer arithmetic exact beyond 2^53', () => {
    expect(add(9007199254740991, 2)).toBe(9007199254740993n);
    expect(mul(2n ** 40n, 2 ** 40)).toBe(2n ** 80n);
    expect(sub(2n ** 60n, 2n ** 60n)).toBe(0);
    expect(numberToString(mul(99999999999, 99999999999))).toBe('9999999999800000000001');
  });

  it('divides exactly when it can, else in float64', () => {
    expect(div(10, 2)).toBe(5);
    expect(div(1, 4)).toBe(0.25);
    expect(() => div(1, 0)).toThrow('divide by zero');
    expect(add(0.1, 0.2)).toBe(0.3); // as OPA's 64-bit-mantissa big.Float prints it
    expect(mul(1.1, 3)).toBe(3.3);
    expect(sub(0.3, 0.1)).toBe(0.2);
    expect(div(1, 3)).toBe(1 / 3);
    expect(add(1e-20, 1)).toBe(1);
  });

  it('takes remainders of integers only', () => {
    expect(rem(-7, 3)).toBe(-1);
    expect(() => rem(1.5, 1)).toThrow('modulo on floating-point number');
    expect(() => rem(1, 0)).toThrow('modulo by zero');
  });

  it('parses literals exactly', () => {
    expect(parseNumber('12345678901234567890')).toBe(12345678901234567890n);
    expect(parseNumber('1e3')).toBe(1000);
    expect(parseNumber('1e20')).toBe(10n ** 20n);
    expect(parseNumber('1.5')).toBe(1.5);
    expect(parseNumber('01')).toBeUndefined();
  });
});
