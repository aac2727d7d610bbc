import { createHash } from 'node:crypto';
import { MemoryTree } from '../../../../libs/transparency/src';
import { NotFoundError } from '../../../common/errors/app-error';
import { EvidenceLogRepository } from '../persistence/evidence-log.repository';
import { InclusionProofsQuery } from './log.queries';
import { InclusionProofsHandler } from './log.handlers';

/** A log of `size` leaves whose repository answers from an in-memory tree, counting its range reads. */
function logOf(size: number) {
  const tree = new MemoryTree();
  for (let i = 0; i < size; i++) tree.appendData(Buffer.from(`leaf ${i}`));
  const reads: number[] = [];
  const repository = {
    size: async () => size,
    rangeHashes: async (_org: string, ranges: Array<{ start: number; end: number }>) => {
      reads.push(ranges.length);
      return ranges.map((r) => tree.subtreeHash(r.start, r.end));
    },
    leafHashesAt: async (_org: string, indexes: number[]) => new Map(indexes.map((i) => [i, tree.leafHash(i)])),
  } as unknown as EvidenceLogRepository;
  return { tree, reads, handler: new InclusionProofsHandler(repository) };
}

const query = (indexes: number[], treeSize: number) => new InclusionProofsQuery({ orgId: 'o', orgName: 'org', indexes, treeSize });

describe('InclusionProofsHandler (the audit package proofs)', () => {
  it('answers each index with the proof of that leaf in the tree asked, in the order given, a few reads for hundreds of proofs', async () => {
    const { tree, reads, handler } = logOf(1000);
    const indexes = Array.from({ length: 600 }, (_, k) => (k * 7919) % 997).concat([0, 996]);
    const answers = await handler.execute(query(indexes, 997));
    expect(answers.map((a) => a.index)).toEqual(indexes);
    for (const a of answers) {
      expect(a.tree_size).toBe(997);
      expect(a.leaf_hash).toBe(tree.leafHash(a.index).toString('base64'));
      expect(a.audit_path).toEqual(tree.inclusionProof(a.index, 997).map((h) => h.toString('base64')));
    }
    // 602 proofs, 256 a read: three reads, and far fewer ranges than proof steps (the upper ones are shared).
    expect(reads).toHaveLength(3);
    expect(reads.reduce((a, b) => a + b, 0)).toBeLessThan(answers.reduce((n, a) => n + a.audit_path.length, 0));
  });

  it('refuses a tree larger than the log, or an index outside the tree', async () => {
    const { handler } = logOf(10);
    await expect(handler.execute(query([1], 11))).rejects.toThrow(NotFoundError);
    await expect(handler.execute(query([1, 10], 10))).rejects.toThrow(NotFoundError);
    await expect(handler.execute(query([-1], 10))).rejects.toThrow(NotFoundError);
    expect(await handler.execute(query([], 10))).toEqual([]);
  });

  it('gives a one-leaf tree an empty path', async () => {
    const { handler } = logOf(1);
    const [only] = await handler.execute(query([0], 1));
    expect(only.audit_path).toEqual([]);
    expect(only.leaf_hash).toBe(createHash('sha256').update(Buffer.from([0])).update('leaf 0').digest('base64'));
  });
});
