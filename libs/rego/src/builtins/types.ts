/** Type predicates (is_*), type_name, and the casts (to_number, cast_*). */
import { Value, RegoSet, isNumber, isObject, typeName } from '../value';
import { parseNumber } from '../number';
import type { BuiltinImpl } from './contract';
import { BuiltinError } from './errors';
import { typeErr, oneOf, arrOrSet } from './operands';

/** Parses a string the way Go's strconv.ParseFloat accepts it (decimal forms; hex floats too). */
export function parseGoFloat(s: string): number | bigint | undefined {
  let t = s;
  let neg = false;
  if (t.startsWith('+') || t.startsWith('-')) {
    neg = t[0] === '-';
    t = t.slice(1);
  }
  const u = t.replace(/_/g, '');
  let v: number | bigint | undefined;
  if (/^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(u)) {
    // Normalise to a JSON-ish literal so integers stay exact.
    let lit = u.startsWith('.') ? '0' + u : u;
    lit = lit.replace(/\.(?=[eE]|$)/, '');
    lit = lit.replace(/^0+(?=\d)/, '');
    v = parseNumber(lit);
  } else if (/^0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)([pP][+-]?\d+)?$/.test(u)) {
    const m = /^0[xX]([0-9a-fA-F]*)\.?([0-9a-fA-F]*)(?:[pP]([+-]?\d+))?$/.exec(u)!;
    const mant = parseInt(m[1] || '0', 16) + (m[2] ? parseInt(m[2], 16) / 16 ** m[2].length : 0);
    v = mant * 2 ** Number(m[3] ?? 0);
  }
  if (v === undefined) return undefined;
  if (typeof v === 'number' && !Number.isFinite(v)) return undefined;
  if (neg) return typeof v === 'bigint' ? -v : v === 0 ? 0 : -v;
  return v;
}

export const TYPES: Record<string, BuiltinImpl> = {
  is_number: ([x]) => isNumber(x),
  is_string: ([x]) => typeof x === 'string',
  is_boolean: ([x]) => typeof x === 'boolean',
  is_array: ([x]) => Array.isArray(x),
  is_set: ([x]) => x instanceof RegoSet,
  is_object: ([x]) => isObject(x),
  is_null: ([x]) => x === null,
  type_name: ([x]) => typeName(x),

  to_number: ([x]) => {
    if (x === null) return 0;
    if (typeof x === 'boolean') return x ? 1 : 0;
    if (isNumber(x)) return x;
    if (typeof x === 'string') {
      const low = x.toLowerCase().replace(/^[+-]/, '');
      if (low === 'nan' || low === 'inf' || low === 'infinity') throw typeErr(1, x, 'valid number string');
      const v = parseGoFloat(x);
      if (v === undefined) throw new BuiltinError(`strconv.ParseFloat: parsing ${JSON.stringify(x)}: invalid syntax`);
      return v;
    }
    throw typeErr(1, x, oneOf('null', 'boolean', 'number', 'string'));
  },
  cast_array: (args) => arrOrSet(args, 0).slice(),
  cast_set: (args) => new RegoSet(arrOrSet(args, 0)),
  cast_string: ([x]) => {
    if (typeof x !== 'string') throw typeErr(1, x, 'string');
    return x;
  },
  cast_boolean: ([x]) => {
    if (typeof x !== 'boolean') throw typeErr(1, x, 'boolean');
    return x;
  },
  cast_null: ([x]) => {
    if (x !== null) throw typeErr(1, x, 'null');
    return null;
  },
  cast_object: ([x]) => {
    if (!isObject(x)) throw typeErr(1, x, 'object');
    return x as Value;
  },
};
