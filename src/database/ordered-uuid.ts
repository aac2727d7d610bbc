import { randomUUID } from 'node:crypto';

/**
 * A UUID version 7 (RFC 9562 section 5.7): the first 48 bits are the Unix time in milliseconds, then the version,
 * 74 random bits and the variant. For the keys of tables written on the hot path (attestations): ids that grow
 * with time put each new primary key entry at the right edge of its B-tree, where a random (version 4) id lands
 * on a random leaf page, which a large table must read in and, after every checkpoint, write whole to the WAL.
 * The id shows when it was made, which the record's `created_at` shows anyway. Ordered by millisecond only:
 * ids of one millisecond are in random order. The random bits are those of `randomUUID()` (Node's batched
 * CSPRNG), its version nibble replaced.
 */
export function orderedUuid(now: number = Date.now()): string {
  const time = now.toString(16).padStart(12, '0');
  // randomUUID(): xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx; from index 15 on: 3 random digits, then the variant group.
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${randomUUID().slice(15)}`;
}
