import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { NotFoundError } from '../../../common/errors/app-error';
import { buildEntry, EvidenceLog } from '../evidence-log';
import { consistencyProofRanges, formatVerifierKey, inclusionProofRanges, publicKeyFromRaw, rawPublicKey } from '../../../../libs/transparency/src';
import { LogSigner } from '../log-signer';
import { EvidenceLogRepository, StoredEntry } from '../persistence/evidence-log.repository';
import { SigningKeyRepository } from '../persistence/signing-key.repository';
import {
  ConsistencyProofQuery,
  EntryAnswer,
  GetCheckpointQuery,
  InclusionProofQuery,
  InclusionProofsQuery,
  ListEntriesQuery,
  ListLogKeysQuery,
  LookupEntryQuery,
} from './log.queries';

const b64 = (b: Buffer) => b.toString('base64');
const answer = (e: StoredEntry): EntryAnswer => ({ index: e.index, leaf: e.leaf, leaf_hash: b64(e.leafHash) });

@QueryHandler(GetCheckpointQuery)
export class GetCheckpointHandler implements IQueryHandler<GetCheckpointQuery> {
  constructor(private readonly log: EvidenceLogRepository, private readonly signer: LogSigner) {}

  async execute({ props: { orgId, orgName, size } }: GetCheckpointQuery): Promise<string> {
    if (size === 0) return this.signer.emptyNote(orgName);
    const cp = await this.log.checkpoint(orgId, size);
    if (cp) return cp.note;
    if (size !== undefined) throw new NotFoundError(`No checkpoint was signed at size ${size}`);
    return this.signer.emptyNote(orgName);
  }
}

@QueryHandler(ListEntriesQuery)
export class ListEntriesHandler implements IQueryHandler<ListEntriesQuery> {
  constructor(private readonly log: EvidenceLogRepository) {}

  async execute({ props: { orgId, start, limit } }: ListEntriesQuery) {
    const treeSize = await this.log.size(orgId);
    // Bounded by the size answered: entries integrated between the two reads belong to a larger tree.
    const entries = start < treeSize ? await this.log.entries(orgId, start, Math.min(limit, treeSize - start)) : [];
    return { tree_size: treeSize, entries: entries.map(answer) };
  }
}

@QueryHandler(InclusionProofQuery)
export class InclusionProofHandler implements IQueryHandler<InclusionProofQuery> {
  constructor(private readonly log: EvidenceLogRepository) {}

  async execute({ props: { orgId, index, leafHash, treeSize } }: InclusionProofQuery) {
    const size = await this.log.size(orgId);
    if (treeSize > size) throw new NotFoundError(`tree_size ${treeSize} is larger than the log (${size} entries)`);
    const at = index ?? (await this.log.indexOfLeafHash(orgId, leafHash!));
    if (at === null) throw new NotFoundError('No entry of this log has that leaf hash');
    if (at >= treeSize) throw new NotFoundError(`Entry ${at} is not in a tree of size ${treeSize}`);
    const [entry] = await this.log.entries(orgId, at, 1);
    const path = await this.log.rangeHashes(orgId, inclusionProofRanges(at, treeSize));
    return { index: at, tree_size: treeSize, leaf_hash: b64(entry.leafHash), audit_path: path.map(b64) };
  }
}

/** Proofs per statement: their ranges (about 2 log2(n) each, the upper ones shared) are read in one query. */
const PROOFS_PER_READ = 256;

@QueryHandler(InclusionProofsQuery)
export class InclusionProofsHandler implements IQueryHandler<InclusionProofsQuery> {
  constructor(private readonly log: EvidenceLogRepository) {}

  async execute({ props: { orgId, indexes, treeSize } }: InclusionProofsQuery) {
    const size = await this.log.size(orgId);
    if (treeSize > size) throw new NotFoundError(`tree_size ${treeSize} is larger than the log (${size} entries)`);
    const bad = indexes.find((i) => !Number.isSafeInteger(i) || i < 0 || i >= treeSize);
    if (bad !== undefined) throw new NotFoundError(`Entry ${bad} is not in a tree of size ${treeSize}`);
    const answers: Array<{ index: number; tree_size: number; leaf_hash: string; audit_path: string[] }> = [];
    for (let from = 0; from < indexes.length; from += PROOFS_PER_READ) {
      const part = indexes.slice(from, from + PROOFS_PER_READ);
      const ranges = new Map<string, { start: number; end: number }>();
      const perIndex = part.map((i) =>
        inclusionProofRanges(i, treeSize).map((r) => {
          const key = `${r.start}-${r.end}`;
          ranges.set(key, r);
          return key;
        }),
      );
      const keys = [...ranges.keys()];
      const [hashes, leaves] = await Promise.all([this.log.rangeHashes(orgId, [...ranges.values()]), this.log.leafHashesAt(orgId, part)]);
      const byKey = new Map(keys.map((k, i) => [k, hashes[i]]));
      part.forEach((index, i) =>
        answers.push({ index, tree_size: treeSize, leaf_hash: b64(leaves.get(index)!), audit_path: perIndex[i].map((k) => b64(byKey.get(k)!)) }),
      );
    }
    return answers;
  }
}

@QueryHandler(ConsistencyProofQuery)
export class ConsistencyProofHandler implements IQueryHandler<ConsistencyProofQuery> {
  constructor(private readonly log: EvidenceLogRepository) {}

  async execute({ props: { orgId, first, second } }: ConsistencyProofQuery) {
    const size = await this.log.size(orgId);
    if (second > size) throw new NotFoundError(`second ${second} is larger than the log (${size} entries)`);
    const path = await this.log.rangeHashes(orgId, consistencyProofRanges(first, second));
    return { first, second, consistency_path: path.map(b64) };
  }
}

@QueryHandler(LookupEntryQuery)
export class LookupEntryHandler implements IQueryHandler<LookupEntryQuery> {
  constructor(
    private readonly log: EvidenceLogRepository,
    private readonly evidenceLog: EvidenceLog,
    private readonly dataSource: DataSource,
  ) {}

  async execute({ props: { orgId, kind, id } }: LookupEntryQuery): Promise<{ index: number | null; leaf: string; leaf_hash: string }> {
    const entry = await this.log.byRecord(orgId, kind, id);
    if (!entry) return this.fromSource(orgId, kind, id);
    if (entry.leaf === null) {
      // Queued by reference: the leaf is the one the sequencer will build with the kind's renderer.
      const renderer = this.evidenceLog.renderer(kind);
      const [item] = renderer ? await renderer([{ orgId, id, ref: entry.ref!, queuedAt: entry.queuedAt! }]) : [];
      if (!item) throw new NotFoundError(`No ${kind} '${id}' is logged`);
      const built = buildEntry({ ...item, kind });
      return { index: null, leaf: built.leaf, leaf_hash: b64(built.leafHash) };
    }
    return { index: entry.index, leaf: entry.leaf, leaf_hash: b64(entry.leafHash!) };
  }

  /** A record of a source kind not integrated yet: the leaf is the one the sequencer will build from it. */
  private async fromSource(orgId: string, kind: string, id: string) {
    const source = this.evidenceLog.source(kind);
    const [item] = source ? (await source.render(this.dataSource.manager, [id])).filter((i) => i.orgId === orgId) : [];
    if (!item) throw new NotFoundError(`No ${kind} '${id}' is logged`);
    const built = buildEntry(item);
    return { index: null, leaf: built.leaf, leaf_hash: b64(built.leafHash) };
  }
}

@QueryHandler(ListLogKeysQuery)
export class ListLogKeysHandler implements IQueryHandler<ListLogKeysQuery> {
  constructor(private readonly keys: SigningKeyRepository) {}

  async execute() {
    const keys = await this.keys.list();
    return {
      keys: keys.map((k) => {
        const publicKey = rawPublicKey(publicKeyFromRaw(k.publicKey));
        return {
          name: k.name,
          key_id: k.keyId,
          algorithm: 'ed25519' as const,
          public_key: b64(publicKey),
          vkey: formatVerifierKey({ name: k.name, keyId: parseInt(k.keyId, 16), publicKey }),
          active: k.active,
        };
      }),
    };
  }
}
