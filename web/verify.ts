// Checks a log record in the browser, without trusting the server: the leaf hash is recomputed from the leaf's
// text, the inclusion proof is walked to the root (RFC 9162, 2.1.3.2), and the checkpoint's Ed25519 signature
// is checked against a public key the user pinned (C2SP signed note), all with WebCrypto.

const enc = new TextEncoder();

export function fromBase64(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function toBase64(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += String.fromCharCode(x);
  return btoa(s);
}

export function toHex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export async function sha256(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', data as BufferSource));
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** RFC 6962 leaf hash: SHA-256(0x00 || leaf). */
export function leafHash(leaf: string): Promise<Uint8Array> {
  return sha256(concat(new Uint8Array([0]), enc.encode(leaf)));
}

/** RFC 9162 2.1.3.2: the root an inclusion proof leads to, or null when the proof cannot be right. */
export async function rootFromInclusion(index: number, treeSize: number, leaf: Uint8Array, path: Uint8Array[]): Promise<Uint8Array | null> {
  if (!(index >= 0 && index < treeSize)) return null;
  let fn = index;
  let sn = treeSize - 1;
  let r = leaf;
  for (const p of path) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      r = await sha256(concat(new Uint8Array([1]), p, r));
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = await sha256(concat(new Uint8Array([1]), r, p));
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? r : null;
}

export interface Checkpoint {
  origin: string;
  size: number;
  root: Uint8Array;
  /** The signed text: the body up to and including its last newline. */
  body: string;
  signatures: Array<{ name: string; keyId: Uint8Array; signature: Uint8Array }>;
}

export function parseCheckpoint(note: string): Checkpoint {
  const at = note.indexOf('\n\n');
  if (at < 0) throw new Error('not a signed note: no blank line');
  const body = note.slice(0, at + 1);
  const lines = body.split('\n');
  if (lines.length < 4 || !/^\d+$/.test(lines[1])) throw new Error('not a checkpoint: bad tree size line');
  const signatures = note
    .slice(at + 2)
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const m = /^\u2014 (\S+) (\S+)$/.exec(line);
      if (!m) throw new Error('bad signature line');
      const raw = fromBase64(m[2]);
      return { name: m[1], keyId: raw.slice(0, 4), signature: raw.slice(4) };
    });
  return { origin: lines[0], size: Number(lines[1]), root: fromBase64(lines[2]), body, signatures };
}

export interface PinnedKey {
  name: string;
  keyId: Uint8Array;
  publicKey: Uint8Array;
}

/** A verifier key as the log publishes it: `<name>+<8 hex key id>+<base64(0x01 || 32-byte Ed25519 key)>`. */
export async function parseVkey(vkey: string): Promise<PinnedKey> {
  const m = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/=]+)$/.exec(vkey.trim());
  if (!m) throw new Error('not a verifier key (name+keyid+base64)');
  const raw = fromBase64(m[3]);
  if (raw.length !== 33 || raw[0] !== 1) throw new Error('not an Ed25519 verifier key');
  const publicKey = raw.slice(1);
  const keyId = (await sha256(concat(enc.encode(m[1]), new Uint8Array([0x0a, 0x01]), publicKey))).slice(0, 4);
  if (toHex(keyId) !== m[2]) throw new Error('the key id does not match the key');
  return { name: m[1], keyId, publicKey };
}

/** Whether one of the note's signatures is the pinned key's valid Ed25519 signature of its body. */
export async function checkpointSignedBy(cp: Checkpoint, key: PinnedKey): Promise<boolean> {
  const imported = await crypto.subtle.importKey('raw', key.publicKey as BufferSource, { name: 'Ed25519' }, false, ['verify']);
  for (const sig of cp.signatures) {
    if (sig.name !== key.name || !equal(sig.keyId, key.keyId)) continue;
    if (await crypto.subtle.verify({ name: 'Ed25519' }, imported, sig.signature as BufferSource, enc.encode(cp.body) as BufferSource)) return true;
  }
  return false;
}

export interface Verdict {
  ok: boolean;
  steps: Array<{ label: string; ok: boolean; detail?: string }>;
}

/** The whole check for one entry: leaf hash, inclusion in the checkpoint's tree, the checkpoint's signature. */
export async function verifyEntry(input: {
  leaf: string;
  index: number;
  proof: { index: number; tree_size: number; audit_path: string[] };
  checkpointNote: string;
  vkey: string;
}): Promise<Verdict> {
  const steps: Verdict['steps'] = [];
  const add = (label: string, ok: boolean, detail?: string) => (steps.push({ label, ok, detail }), ok);
  try {
    const cp = parseCheckpoint(input.checkpointNote);
    const key = await parseVkey(input.vkey);
    const signed = await checkpointSignedBy(cp, key);
    add('checkpoint signed by the pinned key', signed, `${key.name} (${toHex(key.keyId)}), tree size ${cp.size}`);
    const leaf = await leafHash(input.leaf);
    add('proof is for this entry and this checkpoint', input.proof.index === input.index && input.proof.tree_size === cp.size);
    const root = await rootFromInclusion(input.index, cp.size, leaf, input.proof.audit_path.map(fromBase64));
    add('inclusion proof leads to the checkpoint root', !!root && equal(root, cp.root), root ? `computed ${toBase64(root)}` : 'the proof has the wrong length');
  } catch (error) {
    add('inputs are well formed', false, (error as Error).message);
  }
  return { ok: steps.every((s) => s.ok), steps };
}
