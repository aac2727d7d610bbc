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

/** Calls f(key, value) for each element; stops when f returns true (and returns true). */
export function iterateValue(v: Value, f: (k: Value, x: Value) => boolean): boolean {
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (f(i, v[i])) return true;
    return false;
  }
  if (v instanceof RegoSet) {
    for (const x of v.map.values()) if (f(x, x)) return true;
    return false;
  }
  if (v instanceof RegoObject) {
    for (const [k, x] of v.map.values()) if (f(k, x)) return true;
    return false;
  }
  for (const k in v) {
    if (!hasOwn(v, k)) continue;
    if (f(k, (v as PlainObject)[k])) return true;
  }
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
    const items = v.values().map(regoText).sort();
    return '{' + items.join(', ') + '}';
  }
  if (Array.isArray(v)) return '[' + v.map(regoText).join(', ') + ']';
  if (isObject(v)) {
    const es = objEntries(v).map(([k, x]) => regoText(k) + ': ' + regoText(x));
    es.sort();
    return '{' + es.join(', ') + '}';
  }
  return toJSONText(v);
}
