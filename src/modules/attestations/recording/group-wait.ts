import { Clock } from '../../../common/clock/clock';

/** Below this many attestations waiting at once, a group never waits for company (a lone writer pays nothing). */
const WAIT_FROM = 4;
/** The group size worth waiting for, as a share of the most attestations recently waiting at once. */
const SHARE = 0.75;
/** How long "recently" lasts: the peak of the current window and of the one before it. */
const WINDOW_MS = 1000;

/**
 * How full a group should be before it goes, after a commit, when writers keep the batcher busy.
 *
 * Under a steady load of N concurrent writers that each wait for their answer (pipelines), one group in
 * flight splits them in two halves: those in the group, and those that arrived meanwhile. So groups stay near
 * N/2, each paying a statement's fixed costs (executor start-up, its commit and WAL flush, the round trip)
 * over few rows. Waiting a moment after a commit for the writers just answered to come back makes groups
 * larger and cheaper per attestation, for both the service and PostgreSQL (PostgreSQL's own `commit_delay`
 * does the same for WAL flushes, when enough other transactions are active).
 *
 * The target is 3/4 of the most attestations that waited on the database at once (queued plus in flight) in
 * the last one to two seconds, and none below 4: so a lone writer, or two, never waits, and the target follows
 * the load down within two seconds. The batcher bounds the wait (GROUP_WAIT_MS).
 */
export class GroupWait {
  private windowStart = Number.NEGATIVE_INFINITY;
  private peakNow = 0;
  private peakBefore = 0;

  constructor(private readonly clock: Clock) {}

  /** Notes how many attestations wait on the database now (queued and in flight). */
  observe(waiting: number): void {
    this.roll();
    if (waiting > this.peakNow) this.peakNow = waiting;
  }

  /** The group size to wait for after a commit (0: go at once), at most `max`. */
  target(max: number): number {
    this.roll();
    const peak = Math.max(this.peakNow, this.peakBefore);
    return peak < WAIT_FROM ? 0 : Math.min(max, Math.ceil(peak * SHARE));
  }

  private roll(): void {
    const now = this.clock.now();
    const elapsed = now - this.windowStart;
    // A clock set back (the wall clock stepped by NTP) starts a new window: the peak must not outlive its load.
    if (elapsed >= 0 && elapsed < WINDOW_MS) return;
    this.peakBefore = elapsed >= 0 && elapsed < 2 * WINDOW_MS ? this.peakNow : 0;
    this.peakNow = 0;
    this.windowStart = now;
  }
}
