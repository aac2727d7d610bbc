import { call } from './spec-helpers';
import { makeSet } from '../value';
import { BuiltinError, BuiltinTypeError } from './errors';

describe('types and casts', () => {
  it('names and tests types', () => {
    expect(call('type_name', makeSet([]))).toBe('set');
    expect(call('type_name', 2n ** 70n)).toBe('number');
    expect(call('is_object', {})).toBe(true);
    expect(call('is_set', [])).toBe(false);
    expect(call('is_null', null)).toBe(true);
  });

  it('converts to numbers like strconv.ParseFloat', () => {
    expect(call('to_number', '+1.5e2')).toBe(150);
    expect(call('to_number', true)).toBe(1);
    expect(call('to_number', null)).toBe(0);
    expect(call('to_number', '12345678901234567890')).toBe(12345678901234567890n);
    expect(() => call('to_number', 'inf')).toThrow(BuiltinTypeError);
    expect(() => call('to_number', 'abc')).toThrow(BuiltinError);
    expect(() => call('to_number', [])).toThrow(BuiltinTypeError);
  });

  it('supports the deprecated casts', () => {
    expect(call('cast_array', makeSet([2, 1]))).toEqual([1, 2]);
    expect(call('cast_set', [1, 1])).toEqual([1]);
    expect(() => call('cast_string', 1)).toThrow('operand 1 must be string but got number');
  });
});
