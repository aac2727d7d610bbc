import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { nextTurn } from '../../common/event-loop/next-turn';
import { JsonLogger } from '../../common/logging/json-logger';
import { buildEntry, EvidenceLog, LogAppend, LogRef, LogRenderer } from './evidence-log';
import { EvidenceLogRepository, QueuedEntry, ReadyEntry, recordKey } from './persistence/evidence-log.repository';

/** What a call of `integrate` did. */
export interface Integrated {
  count: number;
  /** Committed entries were left for the next round (a round's batch budget was spent). */
  more?: boolean;
  /** How long before the end of the call the oldest entry it integrated was recorded (database clock); null if none. */
  oldestAgeMs: number | null;
}

/** Queued entries (and records of each source) integrated per transaction. */
const BATCH = 2000;
/**
 * Batches a timer round integrates at most before it may sign (about a second of work at a sequencer's rate on
 * this project's benchmark machine); the next round, a sequencing interval later, goes on.
 */
export const BATCHES_PER_TIMER_ROUND = 8;

/**
 * Entries whose leaves are built between two turns of the event loop. Building one (canonical JSON, hashes) takes
 * about 10 us: a round of a busy second holds hundreds of them, and built in one go they would hold up the
 * requests and group commits of those milliseconds (bench/RESULTS.md, session 12).
 */
const LEAVES_PER_TURN = 64;

/** Margin on the first design's last entry time when deciding which sourced records need the duplicate check. */
const FIRST_DESIGN_MARGIN_MS = 60 * 60 * 1000;

/**
 * Integrates committed entries into the logs, one round at a time across all processes (a transaction lock):
 * the queue's committed rows (`append`), then, for each source kind (attestations), the records committed past
 * the positions integrated so far; each org's entries get the next indexes of its log, with the subtrees they
 * complete, in the transaction that removes them from the queue and moves the sources' positions. A crash at
 * any point leaves either the queue rows and positions as they were (the next round integrates them) or the
 * log rows with the queue and positions moved: never both, never neither.
 */
@Injectable()
export class LogSequencer {
  /** Records created up to this instant may have been logged by the first design (undefined: not read yet). */
  private checkUntil?: number | null;

  constructor(
    private readonly repository: EvidenceLogRepository,
    private readonly evidenceLog: EvidenceLog,
    private readonly logger: JsonLogger,
  ) {}

  /**
   * Integrates everything committed now (in batches). Answers how many entries it integrated, and how long ago
   * (by the database's clock) the oldest of them was recorded; 0 also when
   * another process is integrating (that one takes them), unless `wait`: then it waits for that process's round
   * to end and integrates what is left, so everything committed before the call is integrated when it returns.
   * At most `maxBatches` transactions: what is left then waits for the next call (`more`).
   */
  async integrate(wait = false, maxBatches = Infinity): Promise<Integrated> {
    const total: Integrated = { count: 0, oldestAgeMs: null };
    for (let batches = 1; ; batches++) {
      const round = await this.repository.asSequencer((manager) => this.integrateBatch(manager), wait);
      if (round === null) return total;
      total.count += round.integrated;
      if (round.oldestAgeMs !== null) total.oldestAgeMs = Math.max(total.oldestAgeMs ?? 0, round.oldestAgeMs);
      if (!round.more) return total;
      // A backlog (an upgrade's backfill, a worker that was down) is taken over several rounds, so that what is
      // integrated meanwhile is signed on time instead of waiting for the whole backlog.
      if (batches >= maxBatches) return { ...total, more: true };
    }
  }

  /** Queued entries with their leaves: built by the writer, or now by their kind's renderer (queue order kept). */
  private async build(queued: QueuedEntry[]): Promise<ReadyEntry[]> {
    const byKind = new Map<string, QueuedEntry[]>();
    for (const q of queued) {
      if (q.leaf !== null) continue;
      const part = byKind.get(q.kind);
      if (part) part.push(q);
      else byKind.set(q.kind, [q]);
    }
    const built = new Map<string, { leaf: string; leafHash: Buffer }>();
    for (const [kind, part] of byKind) {
      const renderer = this.evidenceLog.renderer(kind);
      // Rolls the round back: the entries stay queued until a process that knows the kind integrates them.
      if (!renderer) throw new Error(`evidence log: no renderer for kind '${kind}'`);
      const items = await this.render(kind, renderer, part.map((q) => ({ orgId: q.orgId, id: q.recordId, ref: q.ref!, queuedAt: q.queuedAt })));
      const leaves = await leavesOf(kind, items);
      items.forEach((item, i) => built.set(`${item.orgId}/${kind}/${item.id}`, leaves[i]));
    }
    const ready: ReadyEntry[] = [];
    for (const q of queued) {
      const entry = q.leaf !== null ? { leaf: q.leaf, leafHash: q.leafHash } : built.get(`${q.orgId}/${q.kind}/${q.recordId}`);
      if (!entry) {
        this.logger.warn(`evidence log: queued ${q.kind} '${q.recordId}' has no record; not logged`, 'EvidenceLog');
        continue;
      }
      ready.push({ orgId: q.orgId, kind: q.kind, recordId: q.recordId, leaf: entry.leaf, leafHash: entry.leafHash, queuedAt: q.queuedAt });
    }
    return ready;
  }

  /**
   * A kind's records read through their route. A record whose route answers a client error (a 4xx: the record
   * cannot be read as the route shows it, e.g. a moment of a trail whose template can no longer be read) is left
   * out with a warning, like a record that is gone: it must not hold up every other org's log. Any other error
   * (the database gone) fails the round, which is tried again.
   */
  private async render(kind: string, renderer: LogRenderer, refs: LogRef[]): Promise<LogAppend[]> {
    try {
      return await renderer(refs);
    } catch (error) {
      if (!isClientError(error) || refs.length === 1) {
        if (isClientError(error)) {
          this.logger.warn(`evidence log: queued ${kind} '${refs[0].id}' cannot be read through its route (${error.message}); not logged`, 'EvidenceLog');
          return [];
        }
        throw error;
      }
    }
    const out: LogAppend[] = [];
    for (const ref of refs) out.push(...(await this.render(kind, renderer, [ref])));
    return out;
  }

  /** The candidates not in the log yet (those of `toCheck` looked up), each once, in order. */
  private async notLogged(manager: EntityManager, candidates: ReadyEntry[], toCheck: ReadyEntry[]): Promise<ReadyEntry[]> {
    const seen = await this.repository.alreadyLogged(manager, toCheck);
    const ready: ReadyEntry[] = [];
    for (const entry of candidates) {
      const key = recordKey(entry.orgId, entry.kind, entry.recordId);
      if (seen.has(key)) {
        this.logger.warn(`evidence log: ${entry.kind} '${entry.recordId}' is logged already; skipped`, 'EvidenceLog');
        continue;
      }
      seen.add(key);
      ready.push(entry);
    }
    return ready;
  }

  private async integrateBatch(manager: EntityManager): Promise<{ integrated: number; more: boolean; oldestAgeMs: number | null }> {
    const queued = await this.repository.drain(manager, BATCH);
    let more = queued.length === BATCH;
    const candidates: ReadyEntry[] = await this.build(queued);
    const queuedCount = candidates.length;
    const moved: Array<{ kind: string; positions: Map<string, number> }> = [];
    for (const [kind, source] of this.evidenceLog.allSources()) {
      const found = await source.next(manager, await this.repository.cursors(manager, kind), BATCH);
      if (found.length === BATCH) more = true;
      const positions = new Map<string, number>();
      const leaves = await leavesOf(kind, found.map((f) => f.item));
      found.forEach(({ stream, position, item }, i) => {
        positions.set(stream, Math.max(position, positions.get(stream) ?? 0));
        candidates.push({ orgId: item.orgId, kind, recordId: item.id, ...leaves[i], queuedAt: new Date(item.recordedAt) });
      });
      moved.push({ kind, positions });
    }
    if (!candidates.length) return { integrated: 0, more: false, oldestAgeMs: null };
    // A record is logged once. A source's records past its positions were never integrated by this design (the
    // positions move with the entries), so only those the first design may have logged (created before its
    // last entry) and queued entries (a backfilled reference to a record logged since) are checked.
    if (this.checkUntil === undefined) {
      const until = await this.repository.firstDesignLoggedUntil(manager);
      this.checkUntil = until === null ? null : until.getTime() + FIRST_DESIGN_MARGIN_MS;
    }
    const checkUntil = this.checkUntil;
    const toCheck = candidates.filter((c, i) => i < queuedCount || (checkUntil !== null && c.queuedAt !== null && c.queuedAt.getTime() <= checkUntil));
    // With nothing to check, every candidate is a source's record past its stream's position: each once.
    const ready = toCheck.length ? await this.notLogged(manager, candidates, toCheck) : candidates;
    await this.repository.integrate(manager, ready);
    for (const { kind, positions } of moved) await this.repository.advance(manager, kind, positions);
    let oldest: Date | null = null;
    for (const entry of ready) if (entry.queuedAt && (!oldest || entry.queuedAt < oldest)) oldest = entry.queuedAt;
    return { integrated: ready.length, more, oldestAgeMs: oldest ? await this.repository.ageOf(manager, oldest) : null };
  }
}

/** The leaves of a kind's items, in order, LEAVES_PER_TURN between two turns of the event loop. */
async function leavesOf(kind: string, items: LogAppend[]): Promise<Array<{ leaf: string; leafHash: Buffer }>> {
  const leaves: Array<{ leaf: string; leafHash: Buffer }> = [];
  for (let i = 0; i < items.length; i++) {
    if (i && i % LEAVES_PER_TURN === 0) await nextTurn();
    leaves.push(buildEntry({ ...items[i], kind }));
  }
  return leaves;
}

function isClientError(error: unknown): error is AppError {
  return error instanceof AppError && error.status >= 400 && error.status < 500;
}
