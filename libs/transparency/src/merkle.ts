import { hash } from 'node:crypto';

/**
 * RFC 6962 section 2.1 tree hashing and RFC 9162 sections 2.1.3-2.1.4 proofs.
 *
 * Proof generation never walks the whole tree: it names the subtree ranges a proof needs (`inclusionProofRanges`,
 * `consistencyProofRanges`) and asks a provider for their hashes. Every range it names is either a complete,
 * aligned subtree (size 2^k starting at a multiple of 2^k: the hash never changes once the subtree is full, so a
 * store can keep it) or a range that ends at the tree size (the ragged right edge, which `alignedRanges` splits
 * into complete subtrees to be hashed right to left). A store of interior hashes can therefore serve any proof
 * with O(log n) reads and no recomputation.
 */

export const HASH_SIZE = 32;

export function sha256(...parts: Uint8Array[]): Buffer {
  // One-shot hashing: a third cheaper than a Hash object for the evidence log's small inputs (leaves, nodes).
  return hash('sha256', parts.length === 1 ? parts[0] : Buffer.concat(parts), 'buffer');
}

const LEAF_PREFIX = Buffer.from([0x00]);
const NODE_PREFIX = Buffer.from([0x01]);

/** MTH({d}) = SHA-256(0x00 || d). */
export function leafHash(data: Uint8Array): Buffer {
  return sha256(LEAF_PREFIX, data);
}

/** Interior node: SHA-256(0x01 || left || right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  return sha256(NODE_PREFIX, left, right);
}

/** MTH({}) = SHA-256(""): the root of the empty tree. */
export function emptyRoot(): Buffer {
  return sha256();
}

/** A half-open range of leaf indexes [start, end). */
export interface LeafRange {
  start: number;
  end: number;
}

/** Hash of the subtree over leaves [start, end), as MTH(D[start:end]). */
export type SubtreeHashFn = (start: number, end: number) => Uint8Array;
export type AsyncSubtreeHashFn = (start: number, end: number) => Promise<Uint8Array>;

/** The largest power of two strictly smaller than n (n >= 2). */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function assertSize(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer`);
}

/** RFC 6962 MTH over a list of leaf hashes (recursive definition, for tests and small trees). */
export function rootFromLeafHashes(leafHashes: readonly Uint8Array[]): Buffer {
  return hashRange(0, leafHashes.length, (i) => leafHashes[i]);
}

/** MTH(D[start:end]) computed from leaf hashes. */
export function hashRange(start: number, end: number, leafAt: (index: number) => Uint8Array): Buffer {
  const n = end - start;
  if (n === 0) return emptyRoot();
  if (n === 1) return Buffer.from(leafAt(start));
  const k = splitPoint(n);
  return nodeHash(hashRange(start, start + k, leafAt), hashRange(start + k, end, leafAt));
}

/**
 * The complete aligned subtrees that make up [start, end), left to right, when [start, end) is itself complete or
 * ends at the tree edge. MTH(D[start:end]) is the right-to-left fold of their hashes:
 * nodeHash(h0, nodeHash(h1, ... nodeHash(h_{k-2}, h_{k-1}))).
 */
export function alignedRanges(start: number, end: number): LeafRange[] {
  const out: LeafRange[] = [];
  let s = start;
  while (s < end) {
    let size = 1;
    // Grow while the block stays aligned at s and inside [s, end).
    while (s % (size * 2) === 0 && s + size * 2 <= end) size *= 2;
    out.push({ start: s, end: s + size });
    s += size;
  }
  return out;
}

/** Folds the hashes of `alignedRanges(start, end)` into MTH(D[start:end]). */
export function foldAligned(hashes: readonly Uint8Array[]): Buffer {
  if (hashes.length === 0) return emptyRoot();
  let acc: Buffer = Buffer.from(hashes[hashes.length - 1]);
  for (let i = hashes.length - 2; i >= 0; i--) acc = nodeHash(hashes[i], acc);
  return acc;
}

/** RFC 6962 2.1.1 PATH(m, D[n]) as subtree ranges, deepest first. */
export function inclusionProofRanges(index: number, treeSize: number): LeafRange[] {
  assertSize('index', index);
  assertSize('tree size', treeSize);
  if (index >= treeSize) throw new RangeError(`index ${index} is not below tree size ${treeSize}`);
  const out: LeafRange[] = [];
  const path = (m: number, start: number, n: number): void => {
    if (n === 1) return;
    const k = splitPoint(n);
    if (m < k) {
      path(m, start, k);
      out.push({ start: start + k, end: start + n });
    } else {
      path(m - k, start + k, n - k);
      out.push({ start, end: start + k });
    }
  };
  path(index, 0, treeSize);
  return out;
}

/** RFC 6962 2.1.2 PROOF(m, D[n]) as subtree ranges; empty when m is 0 or m equals n. */
export function consistencyProofRanges(first: number, second: number): LeafRange[] {
  assertSize('first', first);
  assertSize('second', second);
  if (first > second) throw new RangeError(`first size ${first} is larger than second size ${second}`);
  const out: LeafRange[] = [];
  if (first === 0 || first === second) return out;
  const sub = (m: number, start: number, n: number, b: boolean): void => {
    if (m === n) {
      if (!b) out.push({ start, end: start + n });
      return;
    }
    const k = splitPoint(n);
    if (m <= k) {
      sub(m, start, k, b);
      out.push({ start: start + k, end: start + n });
    } else {
      sub(m - k, start + k, n - k, false);
      out.push({ start, end: start + k });
    }
  };
  sub(first, 0, second, true);
  return out;
}

export function inclusionProof(index: number, treeSize: number, subtreeHash: SubtreeHashFn): Buffer[] {
  return inclusionProofRanges(index, treeSize).map((r) => Buffer.from(subtreeHash(r.start, r.end)));
}

export function consistencyProof(first: number, second: number, subtreeHash: SubtreeHashFn): Buffer[] {
  return consistencyProofRanges(first, second).map((r) => Buffer.from(subtreeHash(r.start, r.end)));
}

export async function inclusionProofAsync(index: number, treeSize: number, subtreeHash: AsyncSubtreeHashFn): Promise<Buffer[]> {
  const ranges = inclusionProofRanges(index, treeSize);
  return (await Promise.all(ranges.map((r) => subtreeHash(r.start, r.end)))).map((h) => Buffer.from(h));
}

export async function consistencyProofAsync(first: number, second: number, subtreeHash: AsyncSubtreeHashFn): Promise<Buffer[]> {
  const ranges = consistencyProofRanges(first, second);
  return (await Promise.all(ranges.map((r) => subtreeHash(r.start, r.end)))).map((h) => Buffer.from(h));
}

function isHash(h: Uint8Array | null | undefined): h is Uint8Array {
  return h != null && h.length === HASH_SIZE;
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.length), Buffer.from(b.buffer, b.byteOffset, b.length)) === 0;
}

/**
 * RFC 9162 2.1.3.2: the root an inclusion proof leads to, or null when the proof is malformed for that index and
 * size (wrong length, a hash of the wrong size).
 */
export function rootFromInclusionProof(index: number, treeSize: number, leaf: Uint8Array, proof: readonly Uint8Array[]): Buffer | null {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(treeSize) || index < 0 || index >= treeSize) return null;
  if (!isHash(leaf) || !proof.every(isHash)) return null;
  // Sizes are below 2^53; BigInt keeps the shifts exact past 2^31.
  let fn = BigInt(index);
  let sn = BigInt(treeSize - 1);
  let r: Buffer = Buffer.from(leaf);
  for (const p of proof) {
    if (sn === 0n) return null;
    if ((fn & 1n) === 1n || fn === sn) {
      r = nodeHash(p, r);
      if ((fn & 1n) === 0n) {
        while ((fn & 1n) === 0n && fn !== 0n) {
          fn >>= 1n;
          sn >>= 1n;
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  return sn === 0n ? r : null;
}

/** RFC 9162 2.1.3.2 inclusion verification. */
export function verifyInclusion(index: number, treeSize: number, leaf: Uint8Array, proof: readonly Uint8Array[], root: Uint8Array): boolean {
  if (!isHash(root)) return false;
  const r = rootFromInclusionProof(index, treeSize, leaf, proof);
  return r !== null && equal(r, root);
}

/**
 * RFC 9162 2.1.4.2 consistency verification, with the edge cases the RFC leaves to the caller: equal sizes need
 * equal roots and an empty proof; a first size of 0 is refused, as RFC 9162 defines proofs only for 0 < first and
 * transparency-dev/merkle rejects it (a monitor holding an empty tree has nothing to prove and needs no proof).
 */
export function verifyConsistency(first: number, second: number, firstRoot: Uint8Array, secondRoot: Uint8Array, proof: readonly Uint8Array[]): boolean {
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second) || first < 0 || first > second) return false;
  if (first === 0) return false;
  if (first === second) return proof.length === 0 && equal(firstRoot, secondRoot);
  if (proof.length === 0 || !proof.every(isHash) || !isHash(firstRoot) || !isHash(secondRoot)) return false;
  let path: Buffer[] = proof.map((p) => Buffer.from(p));
  // Step 2: a first size that is a power of two is a complete subtree whose hash is the first root itself.
  if ((first & (first - 1)) === 0) path = [Buffer.from(firstRoot), ...path];
  let fn = BigInt(first - 1);
  let sn = BigInt(second - 1);
  while ((fn & 1n) === 1n) {
    fn >>= 1n;
    sn >>= 1n;
  }
  let fr: Buffer = path[0];
  let sr: Buffer = path[0];
  for (const c of path.slice(1)) {
    if (sn === 0n) return false;
    if ((fn & 1n) === 1n || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if ((fn & 1n) === 0n) {
        while ((fn & 1n) === 0n && fn !== 0n) {
          fn >>= 1n;
          sn >>= 1n;
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  return sn === 0n && equal(fr, firstRoot) && equal(sr, secondRoot);
}

/**
 * An in-memory tree over leaf hashes. It keeps every complete aligned subtree's hash as leaves arrive (the same
 * interior hashes a persistent store would keep), so `subtreeHash` costs O(log n) for any range a proof names.
 */
export class MemoryTree {
  // levels[h][i] = hash of the complete subtree of 2^h leaves starting at i * 2^h.
  private readonly levels: Buffer[][] = [[]];

  get size(): number {
    return this.levels[0].length;
  }

  appendData(data: Uint8Array): number {
    return this.appendLeafHash(leafHash(data));
  }

  appendLeafHash(hash: Uint8Array): number {
    if (!isHash(hash)) throw new RangeError('a leaf hash is 32 bytes');
    const index = this.levels[0].length;
    this.levels[0].push(Buffer.from(hash));
    let h = 0;
    let i = index;
    while (i % 2 === 1) {
      const left = this.levels[h][i - 1];
      const right = this.levels[h][i];
      if (!this.levels[h + 1]) this.levels[h + 1] = [];
      this.levels[h + 1].push(nodeHash(left, right));
      h += 1;
      i = (i - 1) / 2;
    }
    return index;
  }

  leafHash(index: number): Buffer {
    const h = this.levels[0][index];
    if (!h) throw new RangeError(`no leaf ${index}`);
    return h;
  }

  /** MTH(D[start:end]) for a complete aligned range or one that ends at or below the current size. */
  subtreeHash = (start: number, end: number): Buffer => {
    if (start < 0 || end > this.size || start >= end) throw new RangeError(`range [${start}, ${end}) is not in the tree`);
    return foldAligned(alignedRanges(start, end).map((r) => this.completeHash(r)));
  };

  root(treeSize: number = this.size): Buffer {
    if (treeSize === 0) return emptyRoot();
    return this.subtreeHash(0, treeSize);
  }

  inclusionProof(index: number, treeSize: number = this.size): Buffer[] {
    this.assertSize(treeSize);
    return inclusionProof(index, treeSize, this.subtreeHash);
  }

  consistencyProof(first: number, second: number = this.size): Buffer[] {
    this.assertSize(second);
    return consistencyProof(first, second, this.subtreeHash);
  }

  private assertSize(treeSize: number): void {
    if (treeSize > this.size) throw new RangeError(`tree size ${treeSize} is larger than the tree (${this.size})`);
  }

  private completeHash(r: LeafRange): Buffer {
    const size = r.end - r.start;
    const level = Math.log2(size);
    return this.levels[level][r.start / size];
  }
}

/**
 * A 32-byte hash written as 64 hex digits (either case) or as canonical base64 (44 characters, standard
 * alphabet), as query parameters may give it; null when it is neither.
 */
export function decodeHash(text: string): Buffer | null {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/]{43}=$/.test(text)) {
    const bytes = Buffer.from(text, 'base64');
    if (bytes.length === HASH_SIZE && bytes.toString('base64') === text) return bytes;
  }
  return null;
}
