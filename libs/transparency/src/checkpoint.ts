import { emptyRoot, HASH_SIZE } from './merkle';
import { NoteError, NoteSigner, NoteVerifierKey, openNote, OpenedNote, signNote } from './note';

/**
 * Checkpoints in the C2SP tlog-checkpoint format: the body is `<origin>\n<tree size>\n<base64 root hash>\n`,
 * optionally followed by extension lines, signed as a note.
 */

export interface Checkpoint {
  origin: string;
  size: number;
  rootHash: Buffer;
  /** Extension lines after the root hash (none for the logs this project writes). */
  extensions: string[];
}

export class CheckpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CheckpointError';
  }
}

export function formatCheckpoint(cp: { origin: string; size: number; rootHash: Uint8Array; extensions?: string[] }): string {
  if (cp.origin.length === 0 || /[\n]/.test(cp.origin)) throw new CheckpointError('origin must be one non-empty line');
  if (!Number.isSafeInteger(cp.size) || cp.size < 0) throw new CheckpointError('size must be a non-negative integer');
  if (cp.rootHash.length !== HASH_SIZE) throw new CheckpointError('root hash must be 32 bytes');
  const ext = (cp.extensions ?? []).map((l) => {
    if (l.length === 0 || l.includes('\n')) throw new CheckpointError('extension lines must be non-empty single lines');
    return `${l}\n`;
  });
  return `${cp.origin}\n${cp.size}\n${Buffer.from(cp.rootHash).toString('base64')}\n${ext.join('')}`;
}

export function parseCheckpoint(body: string): Checkpoint {
  if (!body.endsWith('\n')) throw new CheckpointError('checkpoint body must end in a newline');
  const lines = body.slice(0, -1).split('\n');
  if (lines.length < 3) throw new CheckpointError('checkpoint body needs origin, size and root hash lines');
  const [origin, sizeText, rootText, ...extensions] = lines;
  if (origin.length === 0) throw new CheckpointError('empty origin');
  // Decimal, no sign, no leading zeros (except "0" itself).
  if (!/^(0|[1-9][0-9]*)$/.test(sizeText)) throw new CheckpointError('tree size is not a decimal number');
  const size = Number(sizeText);
  if (!Number.isSafeInteger(size)) throw new CheckpointError('tree size is too large');
  const rootHash = Buffer.from(rootText, 'base64');
  if (rootHash.length !== HASH_SIZE || rootHash.toString('base64') !== rootText) throw new CheckpointError('root hash is not 32 bytes of base64');
  if (extensions.some((l) => l.length === 0)) throw new CheckpointError('empty extension line');
  return { origin, size, rootHash, extensions };
}

/** A signed checkpoint note, one signature line per signer. */
export function signCheckpoint(cp: { origin: string; size: number; rootHash: Uint8Array }, signers: readonly NoteSigner[]): string {
  return signNote(formatCheckpoint(cp), signers);
}

/** The checkpoint of an empty log: size 0, root SHA-256(""). */
export function emptyCheckpoint(origin: string): Checkpoint {
  return { origin, size: 0, rootHash: emptyRoot(), extensions: [] };
}

export interface OpenedCheckpoint extends Checkpoint {
  note: OpenedNote;
}

/**
 * Verifies a signed checkpoint note with the given keys and parses its body. When `origin` is given the checkpoint
 * must name it.
 */
export function openCheckpoint(message: string, keys: readonly NoteVerifierKey[], origin?: string): OpenedCheckpoint {
  const note = openNote(message, keys);
  const cp = parseCheckpoint(note.text);
  if (origin !== undefined && cp.origin !== origin) {
    throw new NoteError(`checkpoint origin ${JSON.stringify(cp.origin)} is not ${JSON.stringify(origin)}`);
  }
  return { ...cp, note };
}
