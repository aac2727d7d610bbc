import { createHash } from 'node:crypto';

/**
 * The canonical JSON text of a value: object keys sorted (by UTF-16 code units, as JSON.stringify orders
 * nothing), no white space, `undefined` members left out. Two equal documents have the same text, whatever
 * order their keys were built in, so its sha256 identifies the document.
 */
export function canonicalJson(value: unknown): string {
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
