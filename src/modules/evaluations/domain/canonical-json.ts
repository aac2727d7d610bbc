import { createHash } from 'node:crypto';

/**
 * The canonical JSON text of a value: object keys sorted (by UTF-16 code units), no white space, `undefined`
 * members left out, big integers exact. Two equal documents have the same text, whatever
 * order their keys were built in, so its sha256 identifies the document.
 */
export function canonicalJson(value: unknown): string {
  // Integers beyond 2^53 (time.now_ns() ...) come from the engine as bigint: written as their exact digits.
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    return text === undefined ? 'null' : text;
  }
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  const keys = Object.keys(value as object)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** `sha256:<hex>` of a document's canonical JSON. */
export function documentDigest(value: unknown): string {
  return `sha256:${sha256Hex(canonicalJson(value))}`;
}
