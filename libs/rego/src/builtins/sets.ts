/** Set builtins: and (&), or (|), intersection, union, set_diff, and membership (`in`). */
import { Value, RegoSet, isObject, objEntries, equals, objGet, typeName } from '../value';
import type { BuiltinImpl } from './contract';
import { BuiltinTypeError } from './errors';
import { set } from './operands';

function inter(a: RegoSet, b: RegoSet): RegoSet {
  const out = new RegoSet();
  const [small, big] = a.size <= b.size ? [a, b] : [b, a];
  for (const [k, v] of small.map) if (big.map.has(k)) out.map.set(k, v);
  return out;
}

function uni(a: RegoSet, b: RegoSet): RegoSet {
  const out = new RegoSet();
  for (const [k, v] of a.map) out.map.set(k, v);
  for (const [k, v] of b.map) if (!out.map.has(k)) out.map.set(k, v);
  return out;
}

function setOfSets(args: Value[]): RegoSet[] {
  const s = set(args, 0);
  const out: RegoSet[] = [];
  for (const x of s.values()) {
    if (!(x instanceof RegoSet)) {
      throw new BuiltinTypeError(`operand 1 must be set of sets but got set containing ${typeName(x)}`);
    }
    out.push(x);
  }
  return out;
}

/** `x in coll`: values of arrays, sets and objects; false for anything else. */
export function member(x: Value, coll: Value): boolean {
  if (Array.isArray(coll)) return coll.some((y) => equals(x, y));
  if (coll instanceof RegoSet) return coll.has(x);
  if (isObject(coll)) return objEntries(coll).some(([, y]) => equals(x, y));
  return false;
}

/** `k, v in coll`: index/key k holds v. */
export function member3(k: Value, v: Value, coll: Value): boolean {
  if (Array.isArray(coll)) {
    if (typeof k !== 'number' || !Number.isInteger(k) || k < 0 || k >= coll.length) return false;
    return equals(coll[k], v);
  }
  if (coll instanceof RegoSet) return coll.has(k) && equals(k, v);
  if (isObject(coll)) {
    const y = objGet(coll, k);
    return y !== undefined && equals(y, v);
  }
  return false;
}

export const SETS: Record<string, BuiltinImpl> = {
  and: (args) => inter(set(args, 0), set(args, 1)),
  or: (args) => uni(set(args, 0), set(args, 1)),
  set_diff: (args) => {
    const a = set(args, 0);
    const b = set(args, 1);
    const out = new RegoSet();
    for (const [k, v] of a.map) if (!b.map.has(k)) out.map.set(k, v);
    return out;
  },
  intersection: (args) => {
    const sets = setOfSets(args);
    if (sets.length === 0) return new RegoSet();
    return sets.reduce(inter);
  },
  union: (args) => setOfSets(args).reduce(uni, new RegoSet()),
  'internal.member_2': ([x, coll]) => member(x, coll),
  'internal.member_3': ([k, v, coll]) => member3(k, v, coll),
};
