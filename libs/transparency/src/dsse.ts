import { KeyObject, sign as edSign, verify as edVerify } from 'node:crypto';
import { keyIdHex, NoteVerifierKey, publicKeyFromRaw } from './note';

/**
 * DSSE v1 envelopes signed with Ed25519. The signature covers
 * PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, LEN being the byte length in ASCII
 * decimal without leading zeros. The key id on each signature is the 8-hex-digit key id of the log key that signed.
 */

export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';

export interface DsseSignature {
  keyid: string;
  sig: string;
}

export interface DsseEnvelope {
  payloadType: string;
  payload: string;
  signatures: DsseSignature[];
}

export interface DsseSigner {
  /** Written as the signature's keyid: 8 hex digits. */
  keyId: number;
  privateKey: KeyObject;
}

export function pae(payloadType: string, payload: Uint8Array): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `, 'ascii'), type, Buffer.from(` ${payload.length} `, 'ascii'), payload]);
}

export function signEnvelope(payloadType: string, payload: Uint8Array, signers: readonly DsseSigner[]): DsseEnvelope {
  if (signers.length === 0) throw new Error('an envelope needs at least one signature');
  const message = pae(payloadType, payload);
  return {
    payloadType,
    payload: Buffer.from(payload).toString('base64'),
    signatures: signers.map((s) => ({ keyid: keyIdHex(s.keyId), sig: edSign(null, message, s.privateKey).toString('base64') })),
  };
}

export interface VerifiedEnvelope {
  payloadType: string;
  payload: Buffer;
  /** The key ids whose signatures verified. */
  verifiedKeyIds: string[];
}

/**
 * Verifies every signature made by one of the given keys (matched by key id); signatures by other keys are
 * ignored. Throws unless at least one signature verifies and none by a known key fails.
 */
export function verifyEnvelope(envelope: DsseEnvelope, keys: readonly NoteVerifierKey[]): VerifiedEnvelope {
  if (typeof envelope?.payloadType !== 'string' || typeof envelope.payload !== 'string' || !Array.isArray(envelope.signatures)) {
    throw new Error('not a DSSE envelope');
  }
  const payload = Buffer.from(envelope.payload, 'base64');
  if (payload.toString('base64') !== envelope.payload) throw new Error('payload is not canonical base64');
  const message = pae(envelope.payloadType, payload);
  const verifiedKeyIds: string[] = [];
  for (const s of envelope.signatures) {
    const key = keys.find((k) => keyIdHex(k.keyId) === s?.keyid);
    if (!key) continue;
    const sig = Buffer.from(String(s.sig), 'base64');
    if (sig.length !== 64 || !edVerify(null, message, publicKeyFromRaw(key.publicKey), sig)) {
      throw new Error(`invalid signature for key id ${s.keyid}`);
    }
    verifiedKeyIds.push(s.keyid);
  }
  if (verifiedKeyIds.length === 0) throw new Error('no signature by a known key');
  return { payloadType: envelope.payloadType, payload, verifiedKeyIds };
}
