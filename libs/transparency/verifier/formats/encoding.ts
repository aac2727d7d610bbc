import { createHash, createPublicKey, KeyObject, verify } from 'node:crypto';

/** Small byte helpers the verifier's formats share: strict base64, SHA-256, Ed25519 verification. */

/**
 * Standard base64 (RFC 4648 section 4, with padding) decoded strictly: only text that is exactly the canonical
 * encoding of its bytes is accepted (no URL-safe alphabet, no white space, no missing padding, no stray bits in
 * the last character). Null when the text is not that.
 */
export function strictBase64(text: string): Buffer | null {
  if (typeof text !== 'string' || text.length % 4 !== 0) return null;
  const bytes = Buffer.from(text, 'base64');
  // Node's decoder is lenient; a canonical text is the one that encodes its own bytes back to itself.
  return bytes.toString('base64') === text ? bytes : null;
}

/** True when every surrogate code unit of the string is half of a high-low pair (so it has a UTF-8 form). */
export function wellFormedUtf16(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    if (unit > 0xdbff) return false; // a low surrogate with no high one before it
    const next = text.charCodeAt(i + 1); // NaN past the end
    if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
    i++;
  }
  return true;
}

export function sha256(...chunks: Uint8Array[]): Buffer {
  const h = createHash('sha256');
  for (const c of chunks) h.update(c);
  return h.digest();
}

/** A raw 32-byte Ed25519 public key as a node:crypto key, through its JWK form (RFC 8037: kty OKP, crv Ed25519). */
export function ed25519PublicKey(raw: Uint8Array): KeyObject {
  if (raw.length !== 32) throw new Error('an Ed25519 public key is 32 bytes');
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(raw).toString('base64url') }, format: 'jwk' });
}

/** Ed25519 (RFC 8032) verification of a 64-byte signature over a message; false for any other length. */
export function ed25519Verify(key: KeyObject, message: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== 64) return false;
  return verify(null, message, key, signature);
}
