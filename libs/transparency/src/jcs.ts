import { hash } from 'node:crypto';

/**
 * RFC 8785 JSON Canonicalization Scheme: object members sorted by UTF-16 code units, no whitespace, ECMAScript
 * number and string serialization. Values JSON cannot hold (undefined, NaN, Infinity, functions, symbols,
 * bigints) are refused rather than silently dropped. One pass over the value (it is on the evidence log's path for
 * every record); the message naming where the bad value is is built only when there is one.
 */
export function canonicalJson(value: unknown): string {
  try {
    return serialize(value);
  } catch (error) {
    if (error !== NO_JSON_FORM) throw error;
    assertJsonValue(value, '$');
    throw new TypeError('value has no JSON form');
  }
}

/** Thrown by `serialize` at a value with no JSON form (then `assertJsonValue` says where it is). */
const NO_JSON_FORM = Symbol('no JSON form');

/**
 * Member names as JSON strings, remembered: the records of one kind repeat the same few dozen names, and a map
 * lookup costs less than quoting again (a sixth of an attestation's canonical JSON). Bounded, since names come
 * from clients too: at most QUOTED_MAX names of at most QUOTED_LENGTH characters; others are quoted each time.
 */
const quoted = new Map<string, string>();
const QUOTED_MAX = 4096;
const QUOTED_LENGTH = 64;

function quotedKey(key: string): string {
  let text = quoted.get(key);
  if (text === undefined) {
    text = JSON.stringify(key);
    if (quoted.size < QUOTED_MAX && key.length <= QUOTED_LENGTH) quoted.set(key, text);
  }
  return text;
}

function serialize(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw NO_JSON_FORM;
      return JSON.stringify(value);
    case 'object': {
      if (value === null) return 'null';
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return serialize((value as { toJSON(): unknown }).toJSON());
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + serialize(value[i]);
        return out + ']';
      }
      const object = value as Record<string, unknown>;
      const keys = Object.keys(object).sort();
      let out = '{';
      for (let i = 0; i < keys.length; i++) out += (i ? ',' : '') + quotedKey(keys[i]) + ':' + serialize(object[keys[i]]);
      return out + '}';
    }
    default:
      throw NO_JSON_FORM;
  }
}

export function canonicalJsonBytes(value: unknown): Buffer {
  return Buffer.from(canonicalJson(value), 'utf8');
}

/** Hex SHA-256 of the canonical JSON of a value. */
export function canonicalSha256(value: unknown): string {
  // A string is hashed as its UTF-8 bytes; the canonical text has no lone surrogate (JSON.stringify escapes them).
  return hash('sha256', canonicalJson(value), 'hex');
}

function assertJsonValue(value: unknown, path: string): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`${path}: ${value} has no JSON form`);
    return;
  }
  if (Array.isArray(value)) {
    // By index: a hole in a sparse array is an undefined element (forEach would skip it).
    for (let i = 0; i < value.length; i++) assertJsonValue(value[i], `${path}[${i}]`);
    return;
  }
  if (typeof value === 'object') {
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return assertJsonValue((value as { toJSON(): unknown }).toJSON(), path);
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (v === undefined) throw new TypeError(`${path}.${k}: undefined has no JSON form`);
      assertJsonValue(v, `${path}.${k}`);
    }
    return;
  }
  throw new TypeError(value === undefined ? `${path}: undefined has no JSON form` : `${path}: a ${typeof value} has no JSON form`);
}
