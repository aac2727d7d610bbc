/**
 * Rego value model.
 *
 * JSON values (as produced by JSON.parse) are Rego values as-is, so input and data need no conversion pass:
 *   null / boolean / string  -> JS null / boolean / string
 *   number                   -> JS number; integers outside the safe range may be JS bigint; a literal no
 *                               float64 holds exactly is a BigDec (decimal.ts)
 *   array                    -> JS Array (treated as immutable)
 *   object (string keys)     -> plain JS object (always read through own-property checks)
 *   object (any other keys)  -> RegoObject
 *   set                      -> RegoSet
 */

import { BigDec, decCompare, decOf } from './decimal';

// BigDec is imported from './decimal' where needed, never re-exported here: a re-export is an accessor on this
// module's exports, which made every other import from it measurably slower (about 8% on the rego benchmark)

export type Value =
  | null
  | boolean
  | number
  | bigint
  | BigDec
  | string
  | Value[]
  | PlainObject
  | RegoObject
  | RegoSet;

export interface PlainObject {
  [key: string]: Value;
}

export type TypeName = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object' | 'set';

const hasOwnProp = Object.prototype.hasOwnProperty;

/** Own-property check; never trust `o[k]` on plain objects (keys like "constructor" or "__proto__"). */
export function hasOwn(o: object, k: string): boolean {
  return hasOwnProp.call(o, k);
}

/** Object whose keys are not all strings; kept in a Map keyed by the canonical hash of each key. */
export class RegoObject {
  readonly map: Map<string, [Value, Value]> = new Map();

  get size(): number {
    return this.map.size;
  }
  get(key: Value): Value | undefined {
    const e = this.map.get(hashKey(key));
    return e === undefined ? undefined : e[1];
  }
  has(key: Value): boolean {
    return this.map.has(hashKey(key));
  }
  /** Mutates: only use while building a fresh object. */
  set(key: Value, value: Value): this {
    this.map.set(hashKey(key), [key, value]);
    return this;
  }
  keys(): Value[] {
    const out: Value[] = [];
    for (const e of this.map.values()) out.push(e[0]);
    return out;
  }
  entries(): [Value, Value][] {
    return Array.from(this.map.values());
  }
}

/**
 * Set of values; insertion ordered (use sorted() for OPA's sorted order).
 *
 * Scalars are kept by their canonical key (`hashKey`, which for a string is the string itself). Composites are
 * kept apart, indexed by a cheap structural hash (`shallowHash`) with `equals` resolving collisions: building the
 * canonical key of a composite means serialising all of it, which made sets of objects (`entries contains {...,
 * "slot": slot}`) cost more than parsing the input. When a hash bucket grows long, or when a caller asks for the
 * canonical `map` (set builtins work on it directly, and may fill a fresh set's map themselves), the set switches
 * to canonical keys for every element, for good.
 */
export class RegoSet {
  /** Scalars by canonical key; every element once the set is canonical. */
  private keyed: Map<string, Value> = new Map();
  /** Composite elements in insertion order (empty once canonical). */
  private comps: Value[] = [];
  /** shallowHash -> index into comps, or indexes when several share the hash. */
  private index: Map<number, number | number[]> | null = null;
  private canonical = false;
  /** Cached OPA order; cleared by add(). */
  private sortedCache?: Value[];

  constructor(values?: Iterable<Value>) {
    if (values) for (const v of values) this.add(v);
  }

  /** Canonical key -> element. Switches the set to canonical keys; callers may fill a fresh set through it. */
  get map(): Map<string, Value> {
    if (!this.canonical) this.toCanonical();
    return this.keyed;
  }

  private toCanonical(): void {
    this.canonical = true;
    for (const c of this.comps) this.keyed.set('\u0000' + canon(c), c);
    this.comps = [];
    this.index = null;
    this.sortedCache = undefined;
  }

  get size(): number {
    return this.keyed.size + this.comps.length;
  }

  /** Mutates: only use while building a fresh set. */
  add(v: Value): this {
    if (typeof v === 'string' && (v.length === 0 || v.charCodeAt(0) !== 0)) {
      // a string is its own key: one Map operation
      const n = this.keyed.size;
      this.keyed.set(v, v);
      if (this.keyed.size !== n) this.sortedCache = undefined;
      return this;
    }
    if (this.canonical || typeof v !== 'object' || v === null || v instanceof BigDec) {
      const k = hashKey(v);
      if (!this.keyed.has(k)) {
        this.keyed.set(k, v);
        this.sortedCache = undefined;
      }
      return this;
    }
    const h = shallowHash(v, 1) & 0x3fffffff; // a small integer: no boxed number as Map key
    const index = (this.index ??= new Map());
    const at = index.get(h);
    const comps = this.comps;
    if (at === undefined) {
      index.set(h, comps.length);
    } else if (typeof at === 'number') {
      if (equals(comps[at], v)) return this;
      index.set(h, [at, comps.length]);
    } else {
      for (let i = 0; i < at.length; i++) if (equals(comps[at[i]], v)) return this;
      if (at.length >= 8) {
        // many distinct values alike at the surface (e.g. differing only deep inside): exact keys instead
        this.toCanonical();
        return this.add(v);
      }
      at.push(comps.length);
    }
    comps.push(v);
    this.sortedCache = undefined;
    return this;
  }

  has(v: Value): boolean {
    if (this.canonical || typeof v !== 'object' || v === null || v instanceof BigDec) return this.keyed.has(hashKey(v));
    if (!this.index) return false;
    const at = this.index.get(shallowHash(v, 1) & 0x3fffffff);
    if (at === undefined) return false;
    if (typeof at === 'number') return equals(this.comps[at], v);
    for (let i = 0; i < at.length; i++) if (equals(this.comps[at[i]], v)) return true;
    return false;
  }

  /** Elements in insertion order (a fresh array). */
  values(): Value[] {
    const out = Array.from(this.keyed.values());
    const comps = this.comps;
    for (let i = 0; i < comps.length; i++) out.push(comps[i]);
    return out;
  }

  /** Calls f(x, x) on each element (insertion order) until it returns true: how refs iterate a set. */
  somePair(f: (k: Value, v: Value) => boolean): boolean {
    // the elements as they are now: should f switch the set to canonical keys, composites move into `keyed`
    const comps = this.comps;
    let left = this.keyed.size;
    if (left > 0) {
      for (const v of this.keyed.values()) {
        if (f(v, v)) return true;
        if (--left === 0) break;
      }
    }
    for (let i = 0; i < comps.length; i++) if (f(comps[i], comps[i])) return true;
    return false;
  }

  /** Calls f on each element (insertion order) until it returns true. */
  some(f: (v: Value) => boolean): boolean {
    return this.somePair((_k, v) => f(v));
  }

  /** Elements in OPA's order (sorted); cached, so do not mutate the returned array. */
  sorted(): Value[] {
    if (!this.sortedCache || this.sortedCache.length !== this.size) {
      this.sortedCache = sortValues(this.values());
    }
    return this.sortedCache;
  }

  [Symbol.iterator](): Iterator<Value> {
    return this.comps.length ? this.values()[Symbol.iterator]() : this.keyed.values();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Type predicates

export function typeName(v: Value): TypeName {
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
    case 'bigint':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'object':
      if (v === null) return 'null';
      if (Array.isArray(v)) return 'array';
      if (v instanceof RegoSet) return 'set';
      if (v instanceof BigDec) return 'number';
      return 'object';
    default:
      throw new TypeError(`not a Rego value: ${typeof v}`);
  }
}

export function isNumber(v: unknown): v is number | bigint | BigDec {
  return typeof v === 'number' || typeof v === 'bigint' || (typeof v === 'object' && v instanceof BigDec);
}

export function isString(v: unknown): v is string {
  return typeof v === 'string';
}

export function isArray(v: unknown): v is Value[] {
  return Array.isArray(v);
}

export function isSet(v: unknown): v is RegoSet {
  return v instanceof RegoSet;
}

/** Plain object or RegoObject. */
export function isObject(v: unknown): v is PlainObject | RegoObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof RegoSet) && !(v instanceof BigDec);
}

export function isPlainObject(v: unknown): v is PlainObject {
  return isObject(v) && !(v instanceof RegoObject);
}

// ---------------------------------------------------------------------------------------------------------------
// Object access (works for both plain objects and RegoObject)

export function objGet(o: PlainObject | RegoObject, key: Value): Value | undefined {
  if (o instanceof RegoObject) return o.get(key);
  if (typeof key !== 'string') return undefined;
  return hasOwnProp.call(o, key) ? o[key] : undefined;
}

export function objHas(o: PlainObject | RegoObject, key: Value): boolean {
  if (o instanceof RegoObject) return o.has(key);
  return typeof key === 'string' && hasOwnProp.call(o, key);
}

export function objKeys(o: PlainObject | RegoObject): Value[] {
  if (o instanceof RegoObject) return o.keys();
  return Object.keys(o);
}

export function objEntries(o: PlainObject | RegoObject): [Value, Value][] {
  if (o instanceof RegoObject) return o.entries();
  return Object.entries(o);
}

export function objSize(o: PlainObject | RegoObject): number {
  if (o instanceof RegoObject) return o.size;
  return Object.keys(o).length;
}

/** Assigns on a fresh plain object; "__proto__" must be defined, not assigned, or it would change the prototype. */
export function setOwn(o: PlainObject, key: string, value: Value): void {
  if (key === '__proto__') {
    Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    o[key] = value;
  }
}

/** Builds an object: plain if every key is a string, else a RegoObject. Later duplicates win. */
export function makeObject(entries: Iterable<[Value, Value]>): PlainObject | RegoObject {
  const list = Array.isArray(entries) ? (entries as [Value, Value][]) : Array.from(entries);
  let allStrings = true;
  for (const [k] of list) {
    if (typeof k !== 'string') {
      allStrings = false;
      break;
    }
  }
  if (allStrings) {
    const o: PlainObject = {};
    for (const [k, v] of list) setOwn(o, k as string, v);
    return o;
  }
  const ro = new RegoObject();
  for (const [k, v] of list) ro.set(k, v);
  return ro;
}

export function makeSet(values: Iterable<Value>): RegoSet {
  return new RegoSet(values);
}

/** Sorts in place in OPA's order; all-string arrays use the (faster) native sort when it agrees. */
export function sortValues(vs: Value[]): Value[] {
  let strings = true;
  for (let i = 0; i < vs.length && strings; i++) {
    const v = vs[i];
    if (typeof v !== 'string' || SURROGATE.test(v)) strings = false;
  }
  return strings ? (vs as string[]).sort() : vs.sort(compare);
}

/** Values of a set in OPA's sorted order (a fresh array). */
export function sortedValues(s: RegoSet): Value[] {
  return s.sorted().slice();
}

const sortedKeyCache = new WeakMap<object, Value[]>();

/**
 * Keys of an object in OPA's order (sorted), which is also the order OPA iterates objects in. Cached per object
 * (values are immutable), so do not mutate the returned array.
 */
export function sortedKeys(o: PlainObject | RegoObject): Value[] {
  const hit = sortedKeyCache.get(o);
  if (hit) return hit;
  const keys = o instanceof RegoObject ? o.keys().sort(compare) : sortStringKeys(Object.keys(o));
  sortedKeyCache.set(o, keys);
  return keys;
}

/** Code point order; plain UTF-16 order agrees unless a key holds surrogates. */
function sortStringKeys(keys: string[]): string[] {
  for (const k of keys) if (SURROGATE.test(k)) return keys.sort(compareStrings);
  if (keys.length === 2) {
    if (keys[1] < keys[0]) {
      const t = keys[0];
      keys[0] = keys[1];
      keys[1] = t;
    }
    return keys;
  }
  return keys.sort();
}

// ---------------------------------------------------------------------------------------------------------------
// Ordering and equality

const TYPE_RANK: Record<TypeName, number> = {
  null: 0,
  boolean: 1,
  number: 2,
  string: 3,
  array: 4,
  object: 5,
  set: 6,
};

const UPPER_BMP = /[\ue000-\uffff]/;
const SURROGATE = /[\ud800-\udfff]/;

/**
 * Strings compare as Go does (UTF-8 bytes, i.e. code point order). JS compares UTF-16 code units, which differs
 * only when, at the first difference, a surrogate (U+D800..DFFF) meets a unit in U+E000..U+FFFF: the native
 * result can only be wrong if the "greater" string holds such a unit and the other a surrogate.
 */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  if (a < b) return UPPER_BMP.test(b) && SURROGATE.test(a) ? compareCodePoints(a, b) : -1;
  return UPPER_BMP.test(a) && SURROGATE.test(b) ? compareCodePoints(a, b) : 1;
}

function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) {
        x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
        y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
      }
      return x < y ? -1 : 1;
    }
  }
  return a.length < b.length ? -1 : 1;
}

/** Mixed number/bigint comparison is exact in JS. */
export function compareNumbers(a: number | bigint | BigDec, b: number | bigint | BigDec): number {
  if (typeof a === 'object' || typeof b === 'object') return decCompare(decOf(a), decOf(b));
  return a < b ? -1 : a > b ? 1 : 0;
}

/** OPA's total order: null < boolean < number < string < array < object < set. */
export function compare(a: Value, b: Value): number {
  if (a === b) return 0;
  // fast paths for the common scalar cases
  const pa = typeof a;
  const pb = typeof b;
  if (pa === 'string' && pb === 'string') return compareStrings(a as string, b as string);
  if ((pa === 'number' || pa === 'bigint') && (pb === 'number' || pb === 'bigint')) return a! < b! ? -1 : a! > b! ? 1 : 0;
  const ta = typeName(a);
  const tb = typeName(b);
  if (ta !== tb) return TYPE_RANK[ta] < TYPE_RANK[tb] ? -1 : 1;
  switch (ta) {
    case 'null':
      return 0;
    case 'boolean':
      return a === b ? 0 : a === false ? -1 : 1;
    case 'number':
      return compareNumbers(a as number | bigint | BigDec, b as number | bigint | BigDec);
    case 'string':
      return compareStrings(a as string, b as string);
    case 'array': {
      const x = a as Value[];
      const y = b as Value[];
      const n = Math.min(x.length, y.length);
      for (let i = 0; i < n; i++) {
        const c = compare(x[i], y[i]);
        if (c !== 0) return c;
      }
      return x.length < y.length ? -1 : x.length > y.length ? 1 : 0;
    }
    case 'object': {
      // Objects compare by their sorted keys first, then by the values in key order.
      const x = a as PlainObject | RegoObject;
      const y = b as PlainObject | RegoObject;
      const kx = sortedKeys(x);
      const ky = sortedKeys(y);
      const n = Math.min(kx.length, ky.length);
      for (let i = 0; i < n; i++) {
        const c = compare(kx[i], ky[i]);
        if (c !== 0) return c;
        const cv = compare(objGet(x, kx[i]) as Value, objGet(y, ky[i]) as Value);
        if (cv !== 0) return cv;
      }
      return kx.length < ky.length ? -1 : kx.length > ky.length ? 1 : 0;
    }
    case 'set': {
      const x = sortedValues(a as RegoSet);
      const y = sortedValues(b as RegoSet);
      const n = Math.min(x.length, y.length);
      for (let i = 0; i < n; i++) {
        const c = compare(x[i], y[i]);
        if (c !== 0) return c;
      }
      return x.length < y.length ? -1 : x.length > y.length ? 1 : 0;
    }
  }
}

export function equals(a: Value, b: Value): boolean {
  if (a === b) return true;
  const ta = typeof a;
  const tb = typeof b;
  if (ta !== 'object' || tb !== 'object' || a === null || b === null) {
    // eslint-disable-next-line eqeqeq
    if ((ta === 'bigint' || ta === 'number') && (tb === 'bigint' || tb === 'number')) return a == b;
    // only a number against an object can be a BigDec comparison (unequal strings must stay cheap)
    if (ta === 'object' || tb === 'object') return (a instanceof BigDec || b instanceof BigDec) && isNumber(a) && isNumber(b) && compareNumbers(a, b) === 0;
    return false;
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equals(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  if (a instanceof RegoSet) {
    if (!(b instanceof RegoSet) || a.size !== b.size) return false;
    return !a.some((x) => !b.has(x));
  }
  if (b instanceof RegoSet) return false;
  if (a instanceof BigDec || b instanceof BigDec) return isNumber(a) && isNumber(b) && compareNumbers(a, b) === 0;
  if (a instanceof RegoObject || b instanceof RegoObject) {
    const x = a as PlainObject | RegoObject;
    const y = b as PlainObject | RegoObject;
    if (objSize(x) !== objSize(y)) return false;
    for (const [k, v] of objEntries(x)) {
      const w = objGet(y, k);
      if (w === undefined || !equals(v, w)) return false;
    }
    return true;
  }
  const x = a as PlainObject;
  const y = b as PlainObject;
  let n = 0;
  for (const k in x) {
    if (!hasOwnProp.call(x, k)) continue;
    n++;
    if (!hasOwnProp.call(y, k) || !equals(x[k], y[k])) return false;
  }
  return n === objSize(y);
}

// ---------------------------------------------------------------------------------------------------------------
// Canonical hash keys

/**
 * Canonical key: equal values give equal strings. A string is its own key (the common case costs nothing) unless
 * it starts with "\u0000"; every other value's key starts with "\u0000" plus a type letter.
 */
export function hashKey(v: Value): string {
  if (typeof v === 'string') return v.length > 0 && v.charCodeAt(0) === 0 ? '\u0000s' + v : v;
  return '\u0000' + canon(v);
}

function numCanon(n: number | bigint | BigDec): string {
  // big integers and BigDecs as <coef>e<exp>, so that equal ones hash alike
  if (typeof n === 'object') return n.exp === 0 ? n.coef.toString() : `${n.coef}e${n.exp}`;
  if (typeof n === 'bigint') return bigCanon(n);
  // Integral floats outside the safe range must hash like the equal bigint.
  if (Number.isInteger(n) && !Number.isSafeInteger(n)) return bigCanon(BigInt(n));
  return Object.is(n, -0) ? '0' : String(n);
}

function bigCanon(n: bigint): string {
  const s = n.toString();
  if (s.charCodeAt(s.length - 1) !== 48) return s;
  const d = decOf(n);
  return d.e === 0 ? s : `${d.c}e${d.e}`;
}

function canon(v: Value): string {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
    case 'bigint':
      return 'n' + numCanon(v);
    case 'boolean':
      return v ? 't' : 'f';
  }
  if (v === null) return 'z';
  if (v instanceof BigDec) return 'n' + numCanon(v);
  if (Array.isArray(v)) {
    let s = '[';
    for (let i = 0; i < v.length; i++) s += (i ? ',' : '') + canon(v[i]);
    return s + ']';
  }
  if (v instanceof RegoSet) {
    const parts = v.values();
    for (let i = 0; i < parts.length; i++) parts[i] = canon(parts[i]);
    return '<' + (parts as string[]).sort().join(',') + '>';
  }
  if (v instanceof RegoObject) {
    const parts: string[] = [];
    for (const [k, x] of v.map.values()) parts.push(canon(k) + ':' + canon(x));
    return '{' + parts.sort().join(',') + '}';
  }
  const parts: string[] = [];
  for (const k in v) if (hasOwnProp.call(v, k)) parts.push(JSON.stringify(k) + ':' + canon((v as PlainObject)[k]));
  return '{' + parts.sort().join(',') + '}';
}

// ---------------------------------------------------------------------------------------------------------------
// Cheap structural hash (for RegoSet): equal values hash alike; distinct values may collide (callers compare).

const f64 = new Float64Array(1);
const i32 = new Int32Array(f64.buffer);

function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/**
 * Length and the characters: all of them up to 64, else 32 spread over the string (first and last included).
 * Sampling fewer made names that differ in one middle character collide ("bench/t12" and "bench/t22"), and a
 * set of such objects fell back to canonical keys.
 */
function stringHash(s: string): number {
  const n = s.length;
  let h = n ^ 0x811c9dc5;
  if (n <= 64) {
    for (let i = 0; i < n; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  } else {
    const step = ((n - 1) / 31) | 0;
    for (let j = 0, i = 0; j < 31; j++, i += step) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ s.charCodeAt(n - 1), 0x01000193);
  }
  return h;
}

/** Object keys: length and end characters suffice (keys are short, and the values carry most of the hash). */
function keyHash(k: Value): number {
  if (typeof k !== 'string') return shallowHash(k, 0);
  const n = k.length;
  return n === 0 ? 0x5bd1e995 : (n << 16) ^ (k.charCodeAt(0) << 8) ^ k.charCodeAt(n - 1) ^ (k.charCodeAt(n >> 1) << 4);
}

function numberHash(x: number | bigint | BigDec): number {
  // a bigint equals at most one float, the one Number() gives; 0 and -0 are equal
  const n = typeof x === 'bigint' ? Number(x) : typeof x === 'object' ? x.toNumber() : x;
  if ((n | 0) === n) return n | 0;
  f64[0] = n;
  return mix(i32[0] ^ Math.imul(i32[1], 0x27d4eb2d));
}

/**
 * Structural hash looking `depth` levels into composites (deeper ones count by size only). Order-independent for
 * objects and sets, whose equal values may hold their members in different orders.
 */
export function shallowHash(v: Value, depth: number): number {
  switch (typeof v) {
    case 'string':
      return stringHash(v);
    case 'number':
    case 'bigint':
      return numberHash(v) ^ 0x3c6ef372;
    case 'boolean':
      return v ? 0x2f : 0x1d;
  }
  if (v === null) return 0x0b;
  if (v instanceof BigDec) return numberHash(v) ^ 0x3c6ef372;
  if (Array.isArray(v)) {
    let h = 0x6a09e667 ^ v.length;
    if (depth > 0) for (let i = 0; i < v.length; i++) h = Math.imul(h, 31) + shallowHash(v[i], depth - 1);
    return h | 0;
  }
  if (v instanceof RegoSet) {
    let h = 0x510e527f ^ v.size;
    if (depth > 0) v.some((x) => ((h = (h + mix(shallowHash(x, depth - 1))) | 0), false));
    return h;
  }
  // objects below the depth limit all hash alike: counting their keys would mean walking them
  if (depth <= 0) return 0x1f83d9ab;
  if (v instanceof RegoObject) {
    // same as a plain object's when every key is a string (equal objects may come in either class)
    let h = 0x1f83d9ab;
    for (const [k, x] of v.map.values()) h = (h + mix(Math.imul(keyHash(k), 31) + shallowHash(x, depth - 1))) | 0;
    return h ^ v.size;
  }
  let h = 0x1f83d9ab;
  let n = 0;
  for (const k in v) {
    if (!hasOwnProp.call(v, k)) continue;
    n++;
    h = (h + mix(Math.imul(keyHash(k), 31) + shallowHash((v as PlainObject)[k], depth - 1))) | 0;
  }
  return h ^ n;
}

// ---------------------------------------------------------------------------------------------------------------
// JSON conversion

/** JSON input is already a Rego value; only unsafe-integer floats would need care, and those compare exactly. */
export function fromJSON(x: unknown): Value {
  return x as Value;
}

/**
 * Rego value -> JSON value: sets become sorted arrays, non-string object keys become their JSON text (as OPA
 * does), bigints become numbers when exact (else stay bigint; use toJSONText for exact text).
 */
export function toJSON(v: Value): unknown {
  switch (typeof v) {
    case 'bigint': {
      const n = Number(v);
      return BigInt(n) === v ? n : v;
    }
    case 'object': {
      if (v === null) return null;
      if (v instanceof BigDec) return v.toNumber(); // JSON numbers are float64 here (beyond its range: see README)
      if (Array.isArray(v)) {
        let out: unknown[] | undefined;
        for (let i = 0; i < v.length; i++) {
          const c = toJSON(v[i]);
          if (c !== v[i] && !out) out = v.slice(0, i);
          if (out) out.push(c);
        }
        return out ?? v;
      }
      if (v instanceof RegoSet) return sortedValues(v).map(toJSON);
      if (v instanceof RegoObject) {
        const o: Record<string, unknown> = {};
        for (const [k, x] of v.entries()) {
          const key = typeof k === 'string' ? k : toJSONText(k);
          setOwn(o as PlainObject, key, toJSON(x) as Value);
        }
        return o;
      }
      // Plain object: copy only if some nested value changes.
      let out: Record<string, unknown> | undefined;
      for (const k in v) {
        if (!hasOwnProp.call(v, k)) continue;
        const x = (v as PlainObject)[k];
        const c = toJSON(x);
        if (c !== x && !out) {
          out = {};
          for (const k2 in v) if (hasOwnProp.call(v, k2)) setOwn(out as PlainObject, k2, (v as PlainObject)[k2]);
        }
        if (out) setOwn(out as PlainObject, k, c as Value);
      }
      return out ?? v;
    }
    default:
      return v;
  }
}

/** Compact JSON text of a Rego value, with object keys sorted as OPA/Go print them and big integers exact. */
export function toJSONText(v: Value): string {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      return Number.isFinite(v) ? (Number.isInteger(v) && !Number.isSafeInteger(v) ? BigInt(v).toString() : String(v)) : 'null';
    case 'bigint':
      return v.toString();
    case 'boolean':
      return v ? 'true' : 'false';
  }
  if (v === null) return 'null';
  if (v instanceof BigDec) return v.text;
  if (Array.isArray(v)) return '[' + v.map(toJSONText).join(',') + ']';
  if (v instanceof RegoSet) return '[' + sortedValues(v).map(toJSONText).join(',') + ']';
  const o = v as PlainObject | RegoObject;
  const entries = objEntries(o).map(([k, x]) => [typeof k === 'string' ? k : toJSONText(k), x] as [string, Value]);
  entries.sort((p, q) => compareStrings(p[0], q[0]));
  return '{' + entries.map(([k, x]) => JSON.stringify(k) + ':' + toJSONText(x)).join(',') + '}';
}

// ---------------------------------------------------------------------------------------------------------------
// Rego text (as OPA prints terms: print(), sprintf of composites, error messages)

/** Go's strconv.Quote for the printable-ASCII/Unicode cases that matter; control characters use Go escapes. */
/** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const GO_PRINT = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/** One rune as Go's strconv escapes it inside `quote` (`"` for strings, `'` for runes). */
function goEscapeRune(ch: string, quote: string, asciiOnly: boolean): string {
  const c = ch.codePointAt(0)!;
  if (ch === quote || ch === '\\') return '\\' + ch;
  if (c === 0x20 || (c < 0x80 ? c > 0x20 && c < 0x7f : !asciiOnly && c >= 0xa0 && GO_PRINT.test(ch))) return ch;
  switch (c) {
    case 7:
      return '\\a';
    case 8:
      return '\\b';
    case 12:
      return '\\f';
    case 10:
      return '\\n';
    case 13:
      return '\\r';
    case 9:
      return '\\t';
    case 11:
      return '\\v';
  }
  if (c < 0x20 || c === 0x7f) return '\\x' + c.toString(16).padStart(2, '0');
  // a lone surrogate is not a valid rune: Go writes U+FFFD
  const r = c >= 0xd800 && c <= 0xdfff ? 0xfffd : c;
  return r < 0x10000 ? '\\u' + r.toString(16).padStart(4, '0') : '\\U' + r.toString(16).padStart(8, '0');
}

/** Go's strconv.Quote (`asciiOnly`: strconv.QuoteToASCII, what `%+q` prints). */
export function goQuote(s: string, asciiOnly = false): string {
  let out = '"';
  for (const ch of s) out += goEscapeRune(ch, '"', asciiOnly);
  return out + '"';
}

/** Go's strconv.QuoteRune (`%q` of an integer): `'a'`, `'\\x01'`, `'\\u00a0'`; beyond U+10FFFF, U+FFFD. */
export function goQuoteRune(code: number, asciiOnly = false): string {
  const r = code > 0x10ffff || code < 0 || (code >= 0xd800 && code <= 0xdfff) ? 0xfffd : code;
  return "'" + goEscapeRune(String.fromCodePoint(r), "'", asciiOnly) + "'";
}

/** A Rego value as OPA prints a term: strings quoted, sets `{1, 2}` (empty: `set()`), objects `{"a": 1}`. */
export function regoString(v: Value): string {
  switch (typeof v) {
    case 'string':
      return goQuote(v);
    case 'number':
      return Number.isInteger(v) && !Number.isSafeInteger(v) ? BigInt(v).toString() : String(v);
    case 'bigint':
      return v.toString();
    case 'boolean':
      return v ? 'true' : 'false';
  }
  if (v === null) return 'null';
  if (v instanceof BigDec) return v.text;
  if (Array.isArray(v)) return '[' + v.map(regoString).join(', ') + ']';
  if (v instanceof RegoSet) return v.size === 0 ? 'set()' : '{' + sortedValues(v).map(regoString).join(', ') + '}';
  const o = v as PlainObject | RegoObject;
  return '{' + sortedKeys(o).map((k) => regoString(k) + ': ' + regoString(objGet(o, k) as Value)).join(', ') + '}';
}
