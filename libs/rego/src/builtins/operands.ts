/** Operand checks shared by builtin families; they raise OPA's operand type messages. */
import {
  Value,
  PlainObject,
  RegoObject,
  RegoSet,
  typeName,
  isObject,
} from '../value';
import { BigDec } from '../decimal';
import { BuiltinTypeError } from './errors';

/** OPA names the expected type(s) e.g. "string", "number", "object", "set", "array or set". */
export function typeErr(pos: number, v: Value, want: string): BuiltinTypeError {
  return new BuiltinTypeError(`operand ${pos} must be ${want} but got ${typeName(v)}`);
}

export function str(args: Value[], i: number): string {
  const v = args[i];
  if (typeof v !== 'string') throw typeErr(i + 1, v, 'string');
  return v;
}

/** A number operand; an exact decimal beyond float64 (decimal.ts) as the nearest float. */
export function num(args: Value[], i: number): number | bigint {
  const v = args[i];
  if (typeof v !== 'number' && typeof v !== 'bigint') {
    if (v instanceof BigDec) return v.toNumber();
    throw typeErr(i + 1, v, 'number');
  }
  return v;
}

/** A number operand kept exact (for the arithmetic that computes on decimals: + - * /). */
export function numeric(args: Value[], i: number): number | bigint | BigDec {
  const v = args[i];
  return v instanceof BigDec ? v : num(args, i);
}

export function bool(args: Value[], i: number): boolean {
  const v = args[i];
  if (typeof v !== 'boolean') throw typeErr(i + 1, v, 'boolean');
  return v;
}

export function arr(args: Value[], i: number): Value[] {
  const v = args[i];
  if (!Array.isArray(v)) throw typeErr(i + 1, v, 'array');
  return v;
}

export function set(args: Value[], i: number): RegoSet {
  const v = args[i];
  if (!(v instanceof RegoSet)) throw typeErr(i + 1, v, 'set');
  return v;
}

export function obj(args: Value[], i: number): PlainObject | RegoObject {
  const v = args[i];
  if (!isObject(v)) throw typeErr(i + 1, v, 'object');
  return v;
}

/** OPA's wording for several accepted types: `one of {a, b}`. */
export function oneOf(...names: string[]): string {
  return `one of {${names.join(', ')}}`;
}

/** Integer operand (exact), else OPA's "must be integer number" error. */
export function int(args: Value[], i: number): number | bigint {
  const v = num(args, i);
  if (typeof v === 'number' && !Number.isInteger(v)) {
    throw new BuiltinTypeError(`operand ${i + 1} must be integer number but got floating-point number`);
  }
  return v;
}

/** Integer operand that fits a JS safe integer (indices, counts). */
export function smallInt(args: Value[], i: number): number {
  const v = int(args, i);
  return typeof v === 'bigint' ? Number(v) : v;
}

/** Elements of an array or set operand. */
export function arrOrSet(args: Value[], i: number, want = oneOf('array', 'set')): Value[] {
  const v = args[i];
  if (Array.isArray(v)) return v;
  if (v instanceof RegoSet) return v.sorted();
  throw typeErr(i + 1, v, want);
}
