import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { buildLogEntry, LogEntryLocators } from '../../../libs/transparency/src';
import { EvidenceLogRepository } from './persistence/evidence-log.repository';

export interface LogAppend {
  orgId: string;
  /** The org's name, as the leaf's `org` (and the checkpoint origin) names it. */
  org: string;
  /** The entry kind (README's kinds table), e.g. `attestation`. */
  kind: string;
  /** The record's id, unique per kind in the org (lookup finds it by kind and id). */
  id: string;
  /** The record as its read route returns it: record_sha256 is the SHA-256 of its RFC 8785 canonical JSON. */
  record: unknown;
  /** RFC 3339 UTC with microseconds (the record's own creation time). */
  recordedAt: string;
  locators?: LogEntryLocators;
}

/**
 * The evidence log's write facade: a writer calls `append` inside its own transaction, so the record and its
 * log entry commit together or not at all. Entries are indexed at once under a per-org lock held to commit.
 */
@Injectable()
export class EvidenceLog {
  constructor(private readonly repository: EvidenceLogRepository) {}

  /** One entry per item, in order; items may belong to different orgs. Returns each entry's index. */
  async append(manager: EntityManager, items: LogAppend | LogAppend[]): Promise<number[]> {
    const list = Array.isArray(items) ? items : [items];
    const byOrg = new Map<string, Array<{ at: number; item: LogAppend }>>();
    list.forEach((item, at) => {
      const part = byOrg.get(item.orgId);
      if (part) part.push({ at, item });
      else byOrg.set(item.orgId, [{ at, item }]);
    });
    const indexes = new Array<number>(list.length);
    // Locks in org id order: two writers of the same orgs cannot deadlock on each other.
    for (const orgId of [...byOrg.keys()].sort()) {
      const part = byOrg.get(orgId)!;
      const built = part.map(({ item }) => {
        const entry = buildLogEntry({ kind: item.kind, org: item.org, id: item.id, recordedAt: item.recordedAt, record: item.record, locators: item.locators });
        return { kind: item.kind, recordId: item.id, leaf: entry.leaf, leafHash: entry.leafHash };
      });
      const got = await this.repository.append(manager, orgId, built);
      part.forEach(({ at }, k) => (indexes[at] = got[k]));
    }
    return indexes;
  }
}
