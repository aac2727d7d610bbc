import { createHash } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { EvidenceLogRepository, ReadyEntry } from './evidence-log.repository';

/**
 * `integrate` on an empty log of one org, its SQL answered by a fake: the rows and subtrees it writes, and the
 * event loop's turns (a setImmediate that schedules itself) counted until it writes them.
 */
async function integrateFresh(count: number) {
  let turns = 0;
  let probing = true;
  const probe = () => {
    turns++;
    if (probing) setImmediate(probe);
  };
  let turnsAtInsert = -1;
  let rows: Array<{ idx: number; leaf_hash: string }> = [];
  const subtrees = new Map<string, Buffer>();
  const manager = {
    query: async (text: string, params: unknown[]) => {
      if (text.includes('AS size')) return [{ size: '0' }];
      if (text.includes('INSERT INTO log_entries')) {
        turnsAtInsert = turns;
        rows = JSON.parse(params[0] as string);
        return [];
      }
      if (text.includes('INSERT INTO log_subtrees')) {
        const [, levels, starts, hashes] = params as [string[], number[], number[], Buffer[]];
        levels.forEach((level, k) => subtrees.set(`${level}/${starts[k]}`, hashes[k]));
        return [];
      }
      throw new Error(`unexpected statement: ${text}`);
    },
  } as unknown as EntityManager;
  const entries: ReadyEntry[] = Array.from({ length: count }, (_, i) => ({
    orgId: 'org-1',
    kind: 'attestation',
    recordId: `record-${i}`,
    leaf: `{"i":${i}}`,
    leafHash: createHash('sha256').update(Buffer.from([0])).update(`{"i":${i}}`).digest(),
    queuedAt: null,
  }));
  const repository = new EvidenceLogRepository({} as DataSource);
  setImmediate(probe);
  try {
    await repository.integrate(manager, entries);
  } finally {
    probing = false;
  }
  return { entries, rows, subtrees, turnsBeforeInsert: turnsAtInsert };
}

/** RFC 6962 root of leaf hashes, written out here (not the library's) for a power of two. */
function rootOfPowerOfTwo(hashes: Buffer[]): Buffer {
  let level = hashes;
  while (level.length > 1) {
    const next: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(createHash('sha256').update(Buffer.from([1])).update(level[i]).update(level[i + 1]).digest());
    level = next;
  }
  return level[0];
}

describe('EvidenceLogRepository.integrate', () => {
  it('places a large batch in the tree in slices, with a turn of the event loop between them, and the same tree', async () => {
    const { entries, rows, subtrees, turnsBeforeInsert } = await integrateFresh(1024);
    // 1,024 entries, 128 per turn: at least 7 turns before the rows are written.
    expect(turnsBeforeInsert).toBeGreaterThanOrEqual(7);
    expect(rows.map((r) => r.idx)).toEqual(entries.map((_, i) => i));
    expect(rows.map((r) => r.leaf_hash)).toEqual(entries.map((e) => e.leafHash.toString('hex')));
    // The whole tree is one stored subtree (level 10 from 0), and it is the RFC 6962 root of the leaves.
    expect(subtrees.get('10/0')).toEqual(rootOfPowerOfTwo(entries.map((e) => e.leafHash)));
  });

  it('places a small batch at once', async () => {
    const { rows, turnsBeforeInsert } = await integrateFresh(100);
    expect(rows).toHaveLength(100);
    expect(turnsBeforeInsert).toBe(0);
  });
});
