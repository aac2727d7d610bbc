/**
 * When a sequencing round signs checkpoints. `LOG_CHECKPOINT_INTERVAL_MS` bounds how long a committed entry waits
 * for a signed checkpoint that covers it; checkpoints are signed as seldom as that bound allows: in the last
 * sequencing round after which the next one would end too late, judged from recent rounds. Pure (times are
 * numbers on a monotonic clock, given by the caller), so the decision is tested with plain numbers.
 */
export class CheckpointSchedule {
  /** Starts of consecutive rounds, apart (ticks skipped while a round ran included). */
  private readonly gaps: number[] = [];
  /** How long rounds took to integrate. */
  private readonly integrations: number[] = [];
  /** How long signing took in the rounds that signed. */
  private readonly signings: number[] = [];
  private lastStart?: number;
  /** The entries integrated and not yet covered committed no earlier than this. */
  private uncoveredSince?: number;

  constructor(
    private readonly intervalMs: number,
    /** How often the timer starts a round (a round still running when it fires skips that tick). */
    private readonly sequenceMs: number,
  ) {}

  /**
   * A round started at `start` integrated `count` entries by `now`. They committed after this process's previous
   * round started (it integrated all that had committed before), and no earlier than `oldestAgeMs` before `now`
   * when that is known (the oldest entry's own time, by the database's clock: the bound that holds when another
   * process's round took some of them).
   */
  integrated(start: number, now: number, count: number, oldestAgeMs?: number | null): void {
    const previous = this.began(start);
    remember(this.integrations, now - start);
    if (count <= 0) return;
    let since = previous ?? start;
    if (oldestAgeMs !== undefined && oldestAgeMs !== null) since = Math.min(since, now - oldestAgeMs);
    this.waitSince(since);
  }

  /**
   * A round started at `start` failed: it may have integrated some batches before the failure (each commits on its
   * own), which then wait as if this round had integrated them.
   */
  failed(start: number): void {
    this.waitSince(this.began(start) ?? start);
  }

  /**
   * Whether the round started at `start` signs now, at `now`: the next round (at the first tick after this one
   * ends, and at least one usual gap later), taking as long as the slowest recent round to integrate and sign,
   * would end later than the bound allows for the oldest entry not yet covered.
   */
  due(start: number, now: number): boolean {
    if (this.uncoveredSince === undefined) return false;
    // No round seen before this one: when the next comes is unknown, so this one signs.
    if (!this.gaps.length) return true;
    const nextTick = start + this.sequenceMs * Math.max(1, Math.ceil((now - start) / this.sequenceMs));
    const nextStart = Math.max(start + max(this.gaps), nextTick);
    const nextEnd = nextStart + max(this.integrations) + max(this.signings);
    return nextEnd >= this.uncoveredSince + this.intervalMs;
  }

  /** The round signed every log it grew, taking `tookMs`: nothing integrated so far is waiting. */
  signed(tookMs: number): void {
    remember(this.signings, tookMs);
    this.uncoveredSince = undefined;
  }

  /** Whether entries integrated by this process wait for a checkpoint. */
  waiting(): boolean {
    return this.uncoveredSince !== undefined;
  }

  /** Records a round's start; answers the previous round's. */
  private began(start: number): number | undefined {
    const previous = this.lastStart;
    if (previous !== undefined) remember(this.gaps, start - previous);
    this.lastStart = start;
    return previous;
  }

  private waitSince(since: number): void {
    this.uncoveredSince = this.uncoveredSince === undefined ? since : Math.min(this.uncoveredSince, since);
  }
}

/** Rounds remembered for the estimate of the next one. */
const WINDOW = 16;

function remember(window: number[], value: number): void {
  window.push(Math.max(0, value));
  if (window.length > WINDOW) window.shift();
}

function max(values: number[]): number {
  return values.reduce((a, b) => Math.max(a, b), 0);
}
