import { KeyObject } from 'node:crypto';
import { ed25519PublicKey, ed25519Verify, sha256, strictBase64, wellFormedUtf16 } from './encoding';

/**
 * C2SP signed-note with Ed25519 keys, and the C2SP tlog-checkpoint body carried in one, written for the verifier
 * from the two specifications.
 *
 * A signed note is: its text (UTF-8, ending in a newline, no blank line, no control character but newline), a
 * blank line, then signature lines `— <key name> <base64(4-byte key id || signature)>` each ending in a newline.
 * Only the text is signed. A verifier key is `<name>+<key id as 8 hex digits>+<base64(0x01 || 32-byte key)>`, the
 * key id being the first 4 bytes of SHA-256(name || 0x0A || 0x01 || key) (0x01 names Ed25519).
 *
 * Errors are Error instances whose messages the verifier prints after "FAIL".
 */

const ED25519 = 0x01;
const SIGNATURE_PREFIX = '\u2014 '; // EM DASH, SPACE

export interface TrustedNoteKey {
  name: string;
  /** The key id as the vkey writes it: 8 lowercase hex digits. */
  keyIdHex: string;
  /** The raw 32-byte Ed25519 public key. */
  publicKey: Buffer;
  /** The same key, loaded for node:crypto. */
  keyObject: KeyObject;
}

export interface NoteSignatureLine {
  name: string;
  keyIdHex: string;
  /** The bytes after the key id (64 for Ed25519; other lengths never verify). */
  signature: Buffer;
}

export interface OpenedSignedNote {
  /** The signed text, ending in "\n". */
  text: string;
  signatures: NoteSignatureLine[];
  /** Signature lines that verified with a trusted key, in the note's order. */
  verified: NoteSignatureLine[];
  /** Signature lines by keys the caller did not give (not checked, not an error). */
  unknown: NoteSignatureLine[];
}

/** A key name: not empty, no white space (Unicode's), no "+". */
function validKeyName(name: string): boolean {
  if (name.length === 0 || name.includes('+')) return false;
  return !/\s/u.test(name);
}

/** The key id of an Ed25519 key, as 8 lowercase hex digits. */
export function noteKeyIdHex(name: string, publicKey: Uint8Array): string {
  return sha256(Buffer.from(name, 'utf8'), Uint8Array.of(0x0a, ED25519), publicKey).subarray(0, 4).toString('hex');
}

/** Reads a verifier key, checking its algorithm byte, key length and key id. */
export function readVerifierKey(vkey: string): TrustedNoteKey {
  // The name holds no "+", the id no "+": the key text (base64, which may hold "+") is everything after the second.
  const parts = vkey.split('+');
  if (parts.length < 3) throw new Error('a verifier key is <name>+<key id>+<key>');
  const [name, idHex] = parts;
  const keyText = parts.slice(2).join('+');
  if (!validKeyName(name)) throw new Error('invalid key name in verifier key');
  if (idHex.length !== 8 || !/^[0-9a-f]+$/.test(idHex)) throw new Error('a verifier key id is 8 lowercase hex digits');
  const bytes = strictBase64(keyText);
  if (bytes === null || bytes.length !== 33 || bytes[0] !== ED25519) throw new Error('the verifier key is not an Ed25519 key');
  const publicKey = Buffer.from(bytes.subarray(1));
  if (noteKeyIdHex(name, publicKey) !== idHex) throw new Error('the verifier key id does not match its name and key');
  return { name, keyIdHex: idHex, publicKey, keyObject: ed25519PublicKey(publicKey) };
}

/** Note text rules: ends in a newline, no empty line, no control character other than newline, well-formed. */
function validNoteText(text: string): boolean {
  if (!text.endsWith('\n') || text.startsWith('\n') || text.includes('\n\n')) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x0a) || c === 0x7f) return false;
  }
  // A lone surrogate has no UTF-8 form: the text would not be the bytes that were signed.
  return wellFormedUtf16(text);
}

function splitSignedNote(message: string): { text: string; signatures: NoteSignatureLine[] } {
  const malformed = () => new Error('malformed note');
  if (!message.endsWith('\n')) throw malformed();
  // The signatures follow the last blank line; the text is everything before it, with its final newline.
  const blank = message.lastIndexOf('\n\n');
  if (blank === -1) throw malformed();
  const text = message.slice(0, blank + 1);
  if (!validNoteText(text)) throw malformed();
  const signatures: NoteSignatureLine[] = [];
  for (const line of message.slice(blank + 2, message.length - 1).split('\n')) {
    if (!line.startsWith(SIGNATURE_PREFIX)) throw malformed();
    const fields = line.slice(SIGNATURE_PREFIX.length).split(' ');
    if (fields.length !== 2) throw malformed();
    const [name, sigText] = fields;
    if (!validKeyName(name)) throw malformed();
    const bytes = strictBase64(sigText);
    if (bytes === null || bytes.length < 5) throw malformed();
    signatures.push({ name, keyIdHex: bytes.subarray(0, 4).toString('hex'), signature: Buffer.from(bytes.subarray(4)) });
  }
  return { text, signatures };
}

/**
 * Opens a signed note: every signature by a trusted key (same name and key id) must verify, and at least one
 * must. Signatures by other keys are listed, never checked. Throws when the note is malformed or a check fails.
 */
export function openSignedNote(message: string, trusted: readonly TrustedNoteKey[]): OpenedSignedNote {
  const { text, signatures } = splitSignedNote(message);
  const signed = Buffer.from(text, 'utf8');
  const verified: NoteSignatureLine[] = [];
  const unknown: NoteSignatureLine[] = [];
  for (const line of signatures) {
    const candidates = trusted.filter((k) => k.name === line.name && k.keyIdHex === line.keyIdHex);
    if (candidates.length === 0) {
      unknown.push(line);
      continue;
    }
    const label = `${line.name}+${line.keyIdHex}`;
    if (candidates.some((k) => !k.publicKey.equals(candidates[0].publicKey))) throw new Error(`ambiguous key ${label}`);
    if (!ed25519Verify(candidates[0].keyObject, signed, line.signature)) throw new Error(`invalid signature for key ${label}`);
    verified.push(line);
  }
  if (verified.length === 0) throw new Error('no signature by a known key');
  return { text, signatures, verified, unknown };
}

export interface OpenedCheckpointNote {
  origin: string;
  size: number;
  rootHash: Buffer;
  /** Lines after the root hash (C2SP tlog-checkpoint allows them; this project's logs write none). */
  extensions: string[];
  note: OpenedSignedNote;
}

/**
 * Opens a signed checkpoint: the note's signature first (nothing in an unverified body is read), then its body
 * `<origin>\n<decimal tree size>\n<base64 32-byte root hash>\n[extension lines]`. When `expectedOrigin` is given,
 * the origin line must be exactly it.
 */
export function openSignedCheckpoint(message: string, trusted: readonly TrustedNoteKey[], expectedOrigin?: string): OpenedCheckpointNote {
  const note = openSignedNote(message, trusted);
  const lines = note.text.split('\n');
  lines.pop(); // the text ends in "\n": the last piece is empty
  if (lines.length < 3) throw new Error('checkpoint body needs origin, size and root hash lines');
  const [origin, sizeLine, rootLine] = lines;
  const extensions = lines.slice(3);
  if (origin === '') throw new Error('empty origin');
  // ASCII decimal, no sign, no leading zero unless the size is 0.
  if (!/^[0-9]+$/.test(sizeLine) || (sizeLine.length > 1 && sizeLine[0] === '0')) throw new Error('tree size is not a decimal number');
  const size = Number(sizeLine);
  if (!Number.isSafeInteger(size)) throw new Error('tree size is too large');
  const rootHash = strictBase64(rootLine);
  if (rootHash === null || rootHash.length !== 32) throw new Error('root hash is not 32 bytes of base64');
  if (extensions.includes('')) throw new Error('empty extension line');
  if (expectedOrigin !== undefined && origin !== expectedOrigin) {
    throw new Error(`checkpoint origin ${JSON.stringify(origin)} is not ${JSON.stringify(expectedOrigin)}`);
  }
  return { origin, size, rootHash, extensions, note };
}
