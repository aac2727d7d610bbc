import { ed25519Verify, strictBase64 } from './encoding';
import type { TrustedNoteKey } from './signed-note';

/**
 * DSSE v1 envelope verification (the Dead Simple Signing Envelope protocol), written for the verifier from the
 * protocol's text. A signature covers the pre-authentication encoding of the payload, never the envelope's JSON:
 *   PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body
 * LEN being a byte count in ASCII decimal, type taken as its UTF-8 bytes, body as the decoded payload bytes.
 *
 * The log's keys sign decisions: a signature's `keyid` is the signing key's 8-hex-digit note key id, and it is
 * checked with the first trusted key of that id (Ed25519).
 */

export interface OpenedEnvelope {
  payloadType: string;
  payload: Buffer;
  /** The key ids whose signatures verified. */
  verifiedKeyIds: string[];
}

export function dssePae(payloadType: string, payload: Uint8Array): Buffer {
  const typeBytes = Buffer.from(payloadType, 'utf8');
  const head = `DSSEv1 ${typeBytes.byteLength} `;
  const middle = ` ${payload.byteLength} `;
  const out = Buffer.alloc(head.length + typeBytes.length + middle.length + payload.byteLength);
  let at = out.write(head, 0, 'latin1');
  at += typeBytes.copy(out, at);
  at += out.write(middle, at, 'latin1');
  Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).copy(out, at);
  return out;
}

/**
 * Checks a parsed envelope against the trusted keys: every signature whose keyid names a trusted key must
 * verify, at least one must, and signatures by other key ids are ignored. The payload must be canonical
 * standard base64. Throws (with the reason) when the envelope does not verify.
 */
export function openDsseEnvelope(envelope: unknown, trusted: readonly TrustedNoteKey[]): OpenedEnvelope {
  const e = envelope as { payloadType?: unknown; payload?: unknown; signatures?: unknown } | null | undefined;
  if (e === null || typeof e !== 'object' || typeof e.payloadType !== 'string' || typeof e.payload !== 'string' || !Array.isArray(e.signatures)) {
    throw new Error('not a DSSE envelope');
  }
  const payload = strictBase64(e.payload);
  if (payload === null) throw new Error('payload is not canonical base64');
  const message = dssePae(e.payloadType, payload);
  const verifiedKeyIds: string[] = [];
  for (const entry of e.signatures as Array<{ keyid?: unknown; sig?: unknown } | null | undefined>) {
    const keyid = entry?.keyid;
    const key = trusted.find((k) => k.keyIdHex === keyid);
    if (key === undefined) continue;
    // DSSE lets a signer use either base64 alphabet: decode leniently, the signature check is what counts.
    const sig = Buffer.from(String(entry!.sig), 'base64');
    if (!ed25519Verify(key.keyObject, message, sig)) throw new Error(`invalid signature for key id ${String(keyid)}`);
    verifiedKeyIds.push(key.keyIdHex);
  }
  if (verifiedKeyIds.length === 0) throw new Error('no signature by a known key');
  return { payloadType: e.payloadType, payload, verifiedKeyIds };
}
