/** Aggregates over collections: count, sum, product, max, min, sort, any, all. */
import { Value, RegoSet, isObject, objSize, compare, typeName, sortValues } from '../value';
import * as N from '../number';
import type { BuiltinImpl } from './contract';
import { BuiltinTypeError } from './errors';
import { typeErr, oneOf, arrOrSet } from './operands';
import { runeCount } from './utf8';

/** Numbers of an array/set operand, with OPA's element error. */
function numbers(args: Value[]): N.Numeric[] {
  const v = args[0];
  const xs = arrOrSet(args, 0, oneOf('set', 'array'));
  for (const x of xs) {
    if (!N.isNumOrBig(x)) {
      throw new BuiltinTypeError(`operand 1 must be ${typeName(v)} of numbers but got ${typeName(v)} containing ${typeName(x)}`);
    }
  }
  return xs as N.Numeric[];
}

function extreme(args: Value[], sign: number): Value | undefined {
  const xs = arrOrSet(args, 0, oneOf('set', 'array'));
  if (xs.length === 0) return undefined;
  let best = xs[0];
  for (let i = 1; i < xs.length; i++) if (compare(xs[i], best) * sign > 0) best = xs[i];
  return best;
}

export const AGGREGATES: Record<string, BuiltinImpl> = {
  count: (args) => {
    const v = args[0];
    if (typeof v === 'string') return runeCount(v);
    if (Array.isArray(v)) return v.length;
    if (v instanceof RegoSet) return v.size;
    if (isObject(v)) return objSize(v);
    throw typeErr(1, v, oneOf('array', 'object', 'set', 'string'));
  },
  sum: (args) => {
    let acc: N.Numeric = 0;
    for (const x of numbers(args)) acc = N.add(acc, x);
    return acc;
  },
  product: (args) => {
    let acc: N.Numeric = 1;
    for (const x of numbers(args)) acc = N.mul(acc, x);
    return acc;
  },
  max: (args) => extreme(args, 1),
  min: (args) => extreme(args, -1),
  sort: (args) => sortValues(arrOrSet(args, 0, oneOf('array', 'set')).slice()),
  any: (args) => arrOrSet(args, 0, oneOf('array', 'set')).some((x) => x === true),
  all: (args) => arrOrSet(args, 0, oneOf('array', 'set')).every((x) => x === true),
};
