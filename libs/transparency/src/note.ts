import { createPrivateKey, createPublicKey, KeyObject, sign as edSign, verify as edVerify } from 'node:crypto';
import { sha256 } from './merkle';

/**
 * Signed notes (the C2SP signed-note format) with Ed25519 keys.
 *
 * A note is UTF-8 text ending in a newline, then a blank line, then one or more signature lines
 * `— <key name> <base64(4-byte key id || 64-byte signature)>\n`. The signature covers the text only (every byte up
 * to and including its final newline). The key id is the first 4 bytes of SHA-256(name || 0x0A || 0x01 || public
 * key), 0x01 being the Ed25519 algorithm byte. A verifier key is written `<name>+<8 hex key id>+<base64(0x01 ||
 * public key)>`.
 */

export const ED25519_ALGORITHM = 0x01;
const EM_DASH = '\u2014';
// The DER prefixes that turn a raw 32-byte Ed25519 key into SPKI / PKCS#8, so node:crypto can load it.
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface NoteVerifierKey {
  name: string;
  /** 4-byte key id as a big-endian number. */
  keyId: number;
  /** Raw 32-byte Ed25519 public key. */
  publicKey: Buffer;
}

export interface NoteSigner extends NoteVerifierKey {
  privateKey: KeyObject;
}

export interface NoteSignature {
  name: string;
  keyId: number;
  /** The base64 text as written on the line. */
  base64: string;
  /** The 64-byte signature after the key id. */
  signature: Buffer;
}

export interface ParsedNote {
  /** The signed text, ending in "\n". */
  text: string;
  signatures: NoteSignature[];
}

export interface OpenedNote extends ParsedNote {
  /** Signatures that verified with one of the given keys. */
  verified: NoteSignature[];
  /** Signatures by keys that were not given (left unchecked, not an error). */
  unknown: NoteSignature[];
}

export class NoteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoteError';
  }
}

/** Key names: non-empty, no whitespace and no "+" (C2SP signed-note). */
export function isValidKeyName(name: string): boolean {
  return name.length > 0 && !/[\s+]/u.test(name);
}

export function noteKeyId(name: string, publicKey: Uint8Array): number {
  if (publicKey.length !== 32) throw new NoteError('an Ed25519 public key is 32 bytes');
  return sha256(Buffer.from(name, 'utf8'), Buffer.from([0x0a, ED25519_ALGORITHM]), publicKey).readUInt32BE(0);
}

export function keyIdHex(keyId: number): string {
  return keyId.toString(16).padStart(8, '0');
}

export function rawPublicKey(key: KeyObject): Buffer {
  const der = (key.type === 'private' ? createPublicKey(key) : key).export({ type: 'spki', format: 'der' });
  if (key.asymmetricKeyType !== 'ed25519' || der.length !== 44) throw new NoteError('not an Ed25519 key');
  return Buffer.from(der.subarray(12));
}

export function publicKeyFromRaw(raw: Uint8Array): KeyObject {
  if (raw.length !== 32) throw new NoteError('an Ed25519 public key is 32 bytes');
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
}

export function privateKeyFromSeed(seed: Uint8Array): KeyObject {
  if (seed.length !== 32) throw new NoteError('an Ed25519 seed is 32 bytes');
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

/** A signer from an Ed25519 private key (PKCS#8 PEM text or a KeyObject) and a key name. */
export function noteSigner(name: string, privateKey: KeyObject | string): NoteSigner {
  if (!isValidKeyName(name)) throw new NoteError(`invalid key name ${JSON.stringify(name)}`);
  const key = typeof privateKey === 'string' ? createPrivateKey(privateKey) : privateKey;
  if (key.type !== 'private' || key.asymmetricKeyType !== 'ed25519') throw new NoteError('the signing key must be an Ed25519 private key');
  const publicKey = rawPublicKey(key);
  return { name, keyId: noteKeyId(name, publicKey), publicKey, privateKey: key };
}

export function formatVerifierKey(key: NoteVerifierKey): string {
  return `${key.name}+${keyIdHex(key.keyId)}+${Buffer.concat([Buffer.from([ED25519_ALGORITHM]), key.publicKey]).toString('base64')}`;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decodeBase64Strict(text: string): Buffer | null {
  if (!BASE64.test(text) || text.length % 4 !== 0) return null;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : null;
}

/** Parses `<name>+<8 hex>+<base64(0x01 || key)>`, checking the algorithm, the key length and the key id. */
export function parseVerifierKey(vkey: string): NoteVerifierKey {
  // The base64 key may itself contain "+": split at the first two only.
  const first = vkey.indexOf('+');
  const second = first < 0 ? -1 : vkey.indexOf('+', first + 1);
  if (first < 0 || second < 0) throw new NoteError('a verifier key is <name>+<key id>+<key>');
  const name = vkey.slice(0, first);
  const idHex = vkey.slice(first + 1, second);
  const keyB64 = vkey.slice(second + 1);
  if (!isValidKeyName(name)) throw new NoteError('invalid key name in verifier key');
  if (!/^[0-9a-f]{8}$/.test(idHex)) throw new NoteError('a verifier key id is 8 lowercase hex digits');
  const bytes = decodeBase64Strict(keyB64);
  if (!bytes || bytes.length !== 33 || bytes[0] !== ED25519_ALGORITHM) throw new NoteError('the verifier key is not an Ed25519 key');
  const publicKey = bytes.subarray(1);
  const keyId = parseInt(idHex, 16);
  if (noteKeyId(name, publicKey) !== keyId) throw new NoteError('the verifier key id does not match its name and key');
  return { name, keyId, publicKey: Buffer.from(publicKey) };
}

function signatureLine(signer: NoteSigner, text: string): string {
  const id = Buffer.alloc(4);
  id.writeUInt32BE(signer.keyId >>> 0);
  const sig = edSign(null, Buffer.from(text, 'utf8'), signer.privateKey);
  return `${EM_DASH} ${signer.name} ${Buffer.concat([id, sig]).toString('base64')}\n`;
}

function assertNoteText(text: string): void {
  if (!text.endsWith('\n')) throw new NoteError('note text must end in a newline');
  if (text.includes('\n\n') || text.startsWith('\n')) throw new NoteError('note text must not contain a blank line');
  // The signed-note format forbids ASCII control characters other than newline, and requires valid UTF-8.
  if (/[\u0000-\u0009\u000b-\u001f\u007f]/u.test(text)) throw new NoteError('note text must not contain control characters');
  if (Buffer.from(text, 'utf8').toString('utf8') !== text) throw new NoteError('note text must be valid UTF-8');
}

/** Signs text with every signer, in order: text, a blank line, one signature line per signer. */
export function signNote(text: string, signers: readonly NoteSigner[]): string {
  assertNoteText(text);
  if (signers.length === 0) throw new NoteError('a note needs at least one signature');
  return `${text}\n${signers.map((s) => signatureLine(s, text)).join('')}`;
}

/** Splits a signed note into its text and signature lines; throws NoteError("malformed note") on bad syntax. */
export function parseNote(message: string): ParsedNote {
  const malformed = (): never => {
    throw new NoteError('malformed note');
  };
  if (!message.endsWith('\n')) malformed();
  const split = message.lastIndexOf('\n\n');
  if (split < 0) malformed();
  const text = message.slice(0, split + 1);
  try {
    assertNoteText(text);
  } catch {
    malformed();
  }
  const lines = message.slice(split + 2, -1).split('\n');
  const signatures: NoteSignature[] = [];
  for (const line of lines) {
    const m = /^\u2014 (\S+) (\S+)$/u.exec(line);
    if (!m || !isValidKeyName(m[1])) return malformed();
    const bytes = decodeBase64Strict(m[2]);
    if (!bytes || bytes.length < 5) return malformed();
    signatures.push({ name: m[1], keyId: bytes.readUInt32BE(0), base64: m[2], signature: Buffer.from(bytes.subarray(4)) });
  }
  if (signatures.length === 0) malformed();
  return { text, signatures };
}

/**
 * Parses a note and checks its signatures against the given keys. A signature by a known key (same name and key id)
 * that does not verify is an error; signatures by unknown keys are listed, not checked. At least one signature
 * must verify.
 */
export function openNote(message: string, keys: readonly NoteVerifierKey[]): OpenedNote {
  const parsed = parseNote(message);
  const verified: NoteSignature[] = [];
  const unknown: NoteSignature[] = [];
  const data = Buffer.from(parsed.text, 'utf8');
  for (const sig of parsed.signatures) {
    const matches = keys.filter((k) => k.name === sig.name && k.keyId === sig.keyId);
    if (matches.length === 0) {
      unknown.push(sig);
      continue;
    }
    if (matches.length > 1 && !matches.every((k) => k.publicKey.equals(matches[0].publicKey))) {
      throw new NoteError(`ambiguous key ${sig.name}+${keyIdHex(sig.keyId)}`);
    }
    const ok = sig.signature.length === 64 && edVerify(null, data, publicKeyFromRaw(matches[0].publicKey), sig.signature);
    if (!ok) throw new NoteError(`invalid signature for key ${sig.name}+${keyIdHex(sig.keyId)}`);
    verified.push(sig);
  }
  if (verified.length === 0) throw new NoteError('no signature by a known key');
  return { ...parsed, verified, unknown };
}
