import { createHash } from 'node:crypto';

/**
 * Merkle tree hashing (RFC 6962 section 2.1) and proof verification (RFC 9162 sections 2.1.3.2 and 2.1.4.2),
 * written for the verifier from the RFCs' text: it never builds a tree, it only follows the verification steps,
 * numbered below as the RFC numbers them.
 */

const DIGEST_BYTES = 32;

function sha256Of(...chunks: Uint8Array[]): Buffer {
  const h = createHash('sha256');
  for (const c of chunks) h.update(c);
  return h.digest();
}

/** The hash of a leaf: SHA-256(0x00 || data). */
export function merkleLeafHash(data: Uint8Array): Buffer {
  return sha256Of(Uint8Array.of(0x00), data);
}

/** The hash of an interior node: SHA-256(0x01 || left || right). */
export function merkleNodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  return sha256Of(Uint8Array.of(0x01), left, right);
}

/** The root of the empty tree: SHA-256 of no bytes. */
export function merkleEmptyRoot(): Buffer {
  return sha256Of();
}

function isDigest(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array && value.length === DIGEST_BYTES;
}

function isTreeSize(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/** Right-shifts fn and sn together until fn's lowest bit is set or fn is 0 (step ii of both algorithms). */
function shiftUntilOddOrZero(v: { fn: bigint; sn: bigint }): void {
  while ((v.fn & 1n) === 0n && v.fn !== 0n) {
    v.fn >>= 1n;
    v.sn >>= 1n;
  }
}

/**
 * RFC 9162 2.1.3.2: does `inclusionPath` prove that `leafHash` is the leaf at `leafIndex` of the tree of
 * `treeSize` leaves whose root is `rootHash`? False for any malformed argument (sizes that are not non-negative
 * safe integers, hashes that are not 32 bytes).
 */
export function merkleVerifyInclusion(leafIndex: number, treeSize: number, leafHash: Uint8Array, inclusionPath: readonly Uint8Array[], rootHash: Uint8Array): boolean {
  if (!isTreeSize(leafIndex) || !isTreeSize(treeSize) || !isDigest(leafHash) || !isDigest(rootHash)) return false;
  if (!Array.isArray(inclusionPath) || !inclusionPath.every(isDigest)) return false;
  // 1. leaf_index must be below tree_size.
  if (leafIndex >= treeSize) return false;
  // 2. fn = leaf_index, sn = tree_size - 1.
  const v = { fn: BigInt(leafIndex), sn: BigInt(treeSize - 1) };
  // 3. r = hash.
  let r: Buffer = Buffer.from(leafHash);
  // 4. For each p in inclusion_path:
  for (const p of inclusionPath) {
    // a. sn = 0 with hashes left: fail.
    if (v.sn === 0n) return false;
    // b. LSB(fn) set, or fn = sn: p is a left sibling.
    if ((v.fn & 1n) === 1n || v.fn === v.sn) {
      r = merkleNodeHash(p, r);
      if ((v.fn & 1n) === 0n) shiftUntilOddOrZero(v);
    } else {
      r = merkleNodeHash(r, p);
    }
    // c. shift once.
    v.fn >>= 1n;
    v.sn >>= 1n;
  }
  // 5. sn must be 0 and r the root.
  return v.sn === 0n && sameBytes(r, rootHash);
}

/**
 * RFC 9162 2.1.4.2: does `consistencyPath` prove that the tree of `firstSize` leaves with root `firstRoot` is a
 * prefix of the tree of `secondSize` leaves with root `secondRoot`?
 *
 * The RFC defines proofs for 0 < first < second. At the edges: equal sizes prove consistency only with an empty
 * path and equal roots; a first size of 0 is refused (an empty tree is a prefix of every tree and needs no proof,
 * so a caller holding one must not ask for one); first > second, or a malformed argument, is false.
 */
export function merkleVerifyConsistency(firstSize: number, secondSize: number, firstRoot: Uint8Array, secondRoot: Uint8Array, consistencyPath: readonly Uint8Array[]): boolean {
  if (!isTreeSize(firstSize) || !isTreeSize(secondSize) || !isDigest(firstRoot) || !isDigest(secondRoot)) return false;
  if (!Array.isArray(consistencyPath) || !consistencyPath.every(isDigest)) return false;
  if (firstSize === 0 || firstSize > secondSize) return false;
  if (firstSize === secondSize) return consistencyPath.length === 0 && sameBytes(firstRoot, secondRoot);
  // 1. An empty path proves nothing.
  if (consistencyPath.length === 0) return false;
  // 2. A first size that is a power of two: the first tree is a complete subtree, its root the path's start.
  const first = BigInt(firstSize);
  const path: Uint8Array[] = (first & (first - 1n)) === 0n ? [firstRoot, ...consistencyPath] : [...consistencyPath];
  // 3. fn = first - 1, sn = second - 1.
  const v = { fn: first - 1n, sn: BigInt(secondSize) - 1n };
  // 4. While LSB(fn) is set, shift both.
  while ((v.fn & 1n) === 1n) {
    v.fn >>= 1n;
    v.sn >>= 1n;
  }
  // 5. fr = sr = the path's first value.
  let fr: Buffer = Buffer.from(path[0]);
  let sr: Buffer = Buffer.from(path[0]);
  // 6. For each later value c:
  for (let i = 1; i < path.length; i++) {
    const c = path[i];
    // a. sn = 0 with hashes left: fail.
    if (v.sn === 0n) return false;
    // b. LSB(fn) set, or fn = sn: c is a left sibling of both trees' paths.
    if ((v.fn & 1n) === 1n || v.fn === v.sn) {
      fr = merkleNodeHash(c, fr);
      sr = merkleNodeHash(c, sr);
      if ((v.fn & 1n) === 0n) shiftUntilOddOrZero(v);
    } else {
      // Otherwise c lies only in the second tree, to the right.
      sr = merkleNodeHash(sr, c);
    }
    // c. shift once.
    v.fn >>= 1n;
    v.sn >>= 1n;
  }
  // 7. fr must be the first root, sr the second, and sn 0.
  return v.sn === 0n && sameBytes(fr, firstRoot) && sameBytes(sr, secondRoot);
}
