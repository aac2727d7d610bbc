import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { JsonLogger } from '../../common/logging/json-logger';
import { buildEntry, EvidenceLog } from './evidence-log';
import { EvidenceLogRepository, ReadyEntry } from './persistence/evidence-log.repository';

/** Queued entries integrated per transaction. */
const BATCH = 2000;

/**
 * Integrates queued entries into the logs: takes the queue's committed rows (one drain at a time across all
 * processes, under a session-free transaction lock), builds the leaves of entries queued by reference with
 * their kind's renderer, and gives each org's entries the next indexes of its log, with the subtrees they
 * complete, in the same transaction that removes them from the queue. A crash at any point leaves either the
 * queue rows (integrated by the next round) or the log rows, never both and never neither.
 */
@Injectable()
export class LogSequencer {
  constructor(
    private readonly repository: EvidenceLogRepository,
    private readonly evidenceLog: EvidenceLog,
    private readonly logger: JsonLogger,
  ) {}

  /**
   * Integrates everything queued now (in batches). Answers how many entries it integrated; 0 also when
   * another process is integrating (that one takes them).
   */
  async integrate(): Promise<number> {
    let total = 0;
    for (;;) {
      const taken = await this.repository.asSequencer((manager) => this.integrateBatch(manager));
      if (taken === null) return total;
      total += taken;
      if (taken < BATCH) return total;
    }
  }

  private async integrateBatch(manager: EntityManager): Promise<number> {
    const queued = await this.repository.drain(manager, BATCH);
    if (!queued.length) return 0;
    // Entries queued by reference: their leaves are built now, from the records (which never change).
    const built = new Map<string, { leaf: string; leafHash: Buffer }>();
    const refs = new Map<string, string[]>();
    for (const q of queued) {
      if (q.leaf !== null) continue;
      const ids = refs.get(q.kind);
      if (ids) ids.push(q.recordId);
      else refs.set(q.kind, [q.recordId]);
    }
    for (const [kind, ids] of refs) {
      const renderer = this.evidenceLog.renderer(kind);
      // Rolls the round back: the entries stay queued until a process that knows the kind integrates them.
      if (!renderer) throw new Error(`evidence log: no renderer for kind '${kind}'`);
      for (const item of await renderer(manager, ids)) built.set(`${item.orgId}/${kind}/${item.id}`, buildEntry(item));
    }
    const seen = await this.repository.alreadyLogged(manager, queued);
    const ready: ReadyEntry[] = [];
    for (const q of queued) {
      const key = `${q.orgId}/${q.kind}/${q.recordId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const entry = q.leaf !== null ? { leaf: q.leaf, leafHash: q.leafHash! } : built.get(key);
      if (!entry) {
        this.logger.warn(`evidence log: queued ${q.kind} '${q.recordId}' has no record; not logged`, 'EvidenceLog');
        continue;
      }
      ready.push({ orgId: q.orgId, kind: q.kind, recordId: q.recordId, leaf: entry.leaf, leafHash: entry.leafHash, queuedAt: q.queuedAt });
    }
    await this.repository.integrate(manager, ready);
    return queued.length;
  }
}
