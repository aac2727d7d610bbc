import canonicalize from 'canonicalize';
import { sha256 } from './merkle';

/**
 * RFC 8785 JSON Canonicalization Scheme: object members sorted by UTF-16 code units, no whitespace, ECMAScript
 * number and string serialization. Values JSON cannot hold (undefined at the top, NaN, Infinity, functions) are
 * refused rather than silently dropped.
 */
export function canonicalJson(value: unknown): string {
  assertJsonValue(value, '$');
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('value has no JSON form');
  return text;
}

export function canonicalJsonBytes(value: unknown): Buffer {
  return Buffer.from(canonicalJson(value), 'utf8');
}

/** Hex SHA-256 of the canonical JSON of a value. */
export function canonicalSha256(value: unknown): string {
  return sha256(canonicalJsonBytes(value)).toString('hex');
}

function assertJsonValue(value: unknown, path: string): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`${path}: ${value} has no JSON form`);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((v, i) => assertJsonValue(v, `${path}[${i}]`));
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
  throw new TypeError(`${path}: a ${typeof value} has no JSON form`);
}
