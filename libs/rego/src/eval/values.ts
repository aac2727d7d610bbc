/** Small value helpers the evaluator needs (indexing, iteration, copy-on-write upsert, printing). */
import {
  PlainObject,
  RegoObject,
  RegoSet,
  Value,
  hasOwn,
  isObject,
  makeObject,
  objEntries,
  objGet,
  setOwn,
  sortedKeys,
  sortedValues,
  toJSONText,
} from '../value';

/** `v[key]` as Rego refs see it: array index, object key, set membership. */
export function indexValue(v: Value, key: Value): Value | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  if (Array.isArray(v)) {
    if (typeof key === 'number') {
      return Number.isInteger(key) && key >= 0 && key < v.length ? v[key] : undefined;
    }
    if (typeof key === 'bigint') return undefined;
    return undefined;
  }
  if (v instanceof RegoSet) return v.has(key) ? key : undefined;
  if (v instanceof RegoObject) return v.get(key);
  if (typeof key !== 'string') return undefined;
  return hasOwn(v, key) ? (v as PlainObject)[key] : undefined;
}

/** `v[key]` for a constant string key (refs like `s.slot.status`): the checks a string key needs, no more. */
export function indexString(v: Value, key: string): Value | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  if (v instanceof RegoSet) return v.has(key) ? key : undefined;
  if (v instanceof RegoObject) return v.get(key);
  return hasOwn(v, key) ? (v as PlainObject)[key] : undefined;
}

/**
 * Calls f(key, value) for each element in OPA's order (objects by sorted key, sets sorted; results built from
 * iteration, e.g. array comprehensions, must come out as OPA's do); stops when f returns true. With `ordered`
 * false, elements come in insertion order (cheaper; for places where the order cannot be observed).
 */
export function iterateValue(v: Value, f: (k: Value, x: Value) => boolean, ordered = true): boolean {
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (f(i, v[i])) return true;
    return false;
  }
  if (!ordered) {
    // order not observable here (building sets/objects, counting, every): insertion order, no sorting
    if (v instanceof RegoSet) return v.somePair(f);
    if (v instanceof RegoObject) {
      for (const [k, x] of v.map.values()) if (f(k, x)) return true;
      return false;
    }
    for (const k in v) {
      if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
      if (f(k, (v as PlainObject)[k])) return true;
    }
    return false;
  }
  if (v instanceof RegoSet) {
    if (v.size === 1) return v.somePair(f);
    for (const x of v.sorted()) if (f(x, x)) return true;
    return false;
  }
  if (v instanceof RegoObject) {
    for (const k of sortedKeys(v)) if (f(k, v.get(k) as Value)) return true;
    return false;
  }
  const keys = sortedKeys(v as PlainObject) as string[]; // a BigDec has no own keys
  for (let i = 0; i < keys.length; i++) if (f(keys[i], (v as PlainObject)[keys[i]])) return true;
  return false;
}

/** Copy-on-write: obj with path set to value (missing or non-object intermediates become objects). */
export function upsert(obj: Value | undefined, path: readonly Value[], value: Value, i = 0): Value {
  if (i === path.length) return value;
  const key = path[i];
  const base = obj !== undefined && isObject(obj) ? obj : {};
  const child = objGet(base, key);
  const nv = upsert(child, path, value, i + 1);
  if (base instanceof RegoObject || typeof key !== 'string') {
    const entries = objEntries(base).filter(([k]) => !(typeof k === typeof key && k === key));
    entries.push([key, nv]);
    return makeObject(entries);
  }
  const out: PlainObject = {};
  for (const k in base as PlainObject) if (hasOwn(base, k)) setOwn(out, k, (base as PlainObject)[k]);
  setOwn(out, key, nv);
  return out;
}

/** Text for print(): strings as-is, other values as JSON-ish Rego text. */
export function printText(v: Value): string {
  if (typeof v === 'string') return v;
  return regoText(v);
}

/** Rego-ish text: like JSON, but sets print as `{...}`. */
export function regoText(v: Value): string {
  if (v instanceof RegoSet) {
    if (v.size === 0) return 'set()';
    return '{' + sortedValues(v).map(regoText).join(', ') + '}';
  }
  if (Array.isArray(v)) return '[' + v.map(regoText).join(', ') + ']';
  if (isObject(v)) {
    return '{' + sortedKeys(v).map((k) => regoText(k) + ': ' + regoText(objGet(v, k) as Value)).join(', ') + '}';
  }
  return toJSONText(v);
}
