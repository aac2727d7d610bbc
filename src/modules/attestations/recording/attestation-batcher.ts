import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock, Timer } from '../../../common/clock/clock';
import { isConcurrencyAbort, isDatabaseUnavailable } from '../../../common/errors/database-errors';
import { insufficientResources } from '../../../common/errors/resource-errors';
import { JsonLogger } from '../../../common/logging/json-logger';
import { Metrics } from '../../../common/metrics/metrics';
import { UnitOfWork } from '../../../database/unit-of-work';
import { EvidenceStoreUnavailableError } from '../evidence-errors';
import { AttestationRecorder, GroupCommittedError, PreparedAttestation, RecordAttestationInput, RecordedAttestation } from './attestation-recorder';
import { GroupWait } from './group-wait';

/** Most attestations one transaction takes. */
const MAX_BATCH = 64;
/**
 * Groups in flight at once (per process). Each group holds the counter rows of its flows from its insert to
 * its commit, so a second group in flight mostly waits for the first; 1 measured best (bench/ingest).
 */
const GROUPS_IN_FLIGHT = 1;
/**
 * The longest a group waits after a commit for the size GroupWait asks (Node's timers are good to a
 * millisecond): bench/ingest measured 2 ms against none, 1 ms and a fixed size (bench/RESULTS.md, session 13).
 */
const GROUP_WAIT_MS = 2;
/** Attachments this large are written in a transaction of their own. */
const LARGE_EVIDENCE_BYTES = 1024 * 1024;

interface Pending {
  input: RecordAttestationInput;
  resolve: (value: RecordedAttestation) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit. flow_seq is dense, so a flow's counter row stays locked from allocation to commit, and with
 * durable commits one flow could take only one attestation per WAL flush. Requests that arrive while a
 * group is in flight wait for it to commit and then go together in the next one, whatever their flow or org:
 * one statement, one commit for the whole group. With no concurrent writers a request runs at once, alone:
 * batching adds no delay. Under a steady load of several writers, the next group waits after a commit (at
 * most GROUP_WAIT_MS) until it holds the size GroupWait asks, so groups are larger and cheaper.
 *
 * A group whose trails all exist and that needs no lookups (no artifact fingerprint, no repo_info) is written
 * by one statement in autocommit (AttestationRecorder.recordGroupAtOnce). Otherwise it is split by flow and
 * each flow's part is written by one transaction with set-based statements (prepareMany + insert), which also
 * creates missing flows and trails.
 *
 * Every attestation still gets its own trail moment. If any attestation of a flow's part fails (an unknown
 * artifact fingerprint, a lock conflict), that transaction is rolled back and each of its attestations is
 * retried in its own transaction, so each request gets its own answer and nothing of a failed one is kept.
 */
@Injectable()
export class AttestationBatcher {
  private readonly queue: Pending[] = [];
  private running = 0;
  /** Attestations in the groups in flight. */
  private inFlight = 0;
  private readonly groupWait: GroupWait;
  /** The pending wait for a fuller group, if any. */
  private waiting: { cancel(): void } | null = null;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly recorder: AttestationRecorder,
    private readonly logger: JsonLogger,
    private readonly metrics: Metrics,
    clock: Clock,
    private readonly timer: Timer,
  ) {
    this.groupWait = new GroupWait(clock);
  }

  record(input: RecordAttestationInput): Promise<RecordedAttestation> {
    if (input.evidence && input.evidence.size > LARGE_EVIDENCE_BYTES) return this.single(input);
    return new Promise<RecordedAttestation>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      this.groupWait.observe(this.queue.length + this.inFlight);
      this.drain(false);
    });
  }

  /**
   * Sends the next group if none is in flight. Right after a commit (and while that wait lasts), a queue
   * shorter than GroupWait's target waits for more, at most GROUP_WAIT_MS; a request that finds the batcher
   * idle goes at once.
   */
  private drain(afterCommit: boolean): void {
    if (this.running >= GROUPS_IN_FLIGHT || !this.queue.length) return;
    if ((afterCommit || this.waiting) && this.queue.length < this.groupWait.target(MAX_BATCH)) {
      this.waiting ??= this.timer.after(GROUP_WAIT_MS, () => {
        this.waiting = null;
        this.send();
      });
      return;
    }
    this.send();
  }

  private send(): void {
    if (this.running >= GROUPS_IN_FLIGHT || !this.queue.length) return;
    this.waiting?.cancel();
    this.waiting = null;
    const group = this.queue.splice(0, MAX_BATCH);
    this.metrics.observeIngestGroup(group.length);
    this.running++;
    this.inFlight += group.length;
    let released = false;
    // The next group goes to the database as soon as this one is committed, before this one is answered:
    // answering takes the main thread a while, and the database would sit idle meanwhile.
    const release = () => {
      if (released) return;
      released = true;
      this.running--;
      this.inFlight -= group.length;
      this.drain(true);
    };
    void this.runGroup(group, release).finally(release);
  }

  private async runGroup(group: Pending[], committed: () => void): Promise<void> {
    // Fast path: all trails exist, nothing to look up: one statement for the whole group.
    let atOnce: RecordedAttestation[] | null = null;
    try {
      atOnce = await this.recorder.recordGroupAtOnce(group.map((pending) => pending.input));
    } catch (error) {
      // Committed, or maybe committed (the connection broke): answer with the error, do not write again.
      if (error instanceof GroupCommittedError || isDatabaseUnavailable(error)) {
        committed();
        for (const pending of group) pending.reject(error);
        return;
      }
      // The evidence store unreachable or a disk full (nothing was written): the attachments cannot be stored
      // now, so their requests get the refusal; the others take the general path, which tells for each of them.
      if (error instanceof EvidenceStoreUnavailableError || insufficientResources(error)) {
        const [withEvidence, without] = partition(group, (pending) => Boolean(pending.input.evidence));
        for (const pending of withEvidence) pending.reject(error);
        if (!without.length) {
          committed();
          return;
        }
        group = without;
      } else {
        this.logger.debug('one-statement attestation group failed; taking the general path', { size: group.length, error: (error as Error)?.message });
      }
    }
    if (atOnce) {
      committed();
      group.forEach((pending, i) => pending.resolve(atOnce![i]));
      return;
    }
    const byFlow = new Map<string, Pending[]>();
    for (const pending of group) {
      const key = `${pending.input.orgId}\u0000${pending.input.flowName}`;
      const part = byFlow.get(key);
      if (part) part.push(pending);
      else byFlow.set(key, [pending]);
    }
    for (const part of byFlow.values()) await this.runFlowPart(part);
  }

  /** The general path for the attestations of one flow: one transaction, or one each if that fails. */
  private async runFlowPart(group: Pending[]): Promise<void> {
    if (group.length === 1) {
      const [only] = group;
      await this.single(only.input).then(only.resolve, only.reject);
      return;
    }
    // Trails are locked in name order (stable: one trail's attestations keep their arrival order), so two
    // general-path parts of the same flow in different processes cannot deadlock on each other's trails. (The
    // one-statement path locks in id order; should it ever deadlock with this path in another process,
    // PostgreSQL aborts one side, which then takes this path or the one-by-one retry: nothing is lost.)
    const ordered = [...group].sort((a, b) => (a.input.trailName < b.input.trailName ? -1 : a.input.trailName > b.input.trailName ? 1 : 0));
    let recorded: PreparedAttestation[];
    try {
      recorded = await this.uow.run(async (manager) => {
        const prepared = await this.recorder.prepareMany(manager, ordered.map((pending) => pending.input));
        await this.recorder.insert(manager, prepared);
        return prepared;
      });
    } catch (error) {
      // The connection broke: the commit may have reached the database. Writing each again could record it
      // twice, so each request gets the error (a 503: the client retries) and nothing is written again.
      if (isDatabaseUnavailable(error)) {
        for (const pending of ordered) pending.reject(error);
        return;
      }
      this.logger.debug('attestation group rolled back; recording one by one', { size: group.length, error: (error as Error)?.message });
      for (const pending of ordered) await this.single(pending.input).then(pending.resolve, pending.reject);
      return;
    }
    ordered.forEach((pending, i) => pending.resolve(recorded[i]));
  }

  /**
   * One attestation in its own transaction, outside group commit, after `check` in that transaction (what the
   * verdict rests on, read again and held to the commit; a throw refuses the attestation and writes nothing).
   */
  recordAfter(check: (manager: EntityManager) => Promise<void>, input: RecordAttestationInput): Promise<RecordedAttestation> {
    return this.single(input, check);
  }

  /** One attestation in its own transaction; tried once more if PostgreSQL aborted it to settle a deadlock. */
  private async single(input: RecordAttestationInput, check?: (manager: EntityManager) => Promise<void>): Promise<RecordedAttestation> {
    const write = async (manager: EntityManager) => {
      if (check) await check(manager);
      return this.recorder.record(manager, input);
    };
    try {
      return await this.uow.run(write);
    } catch (error) {
      if (!isConcurrencyAbort(error)) throw error;
      return this.uow.run(write);
    }
  }
}

function partition<T>(items: T[], test: (item: T) => boolean): [T[], T[]] {
  const yes: T[] = [];
  const no: T[] = [];
  for (const item of items) (test(item) ? yes : no).push(item);
  return [yes, no];
}
