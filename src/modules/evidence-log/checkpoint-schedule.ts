/**
 * When a sequencing round signs checkpoints. `LOG_CHECKPOINT_INTERVAL_MS` bounds how long a committed entry waits
 * for a signed checkpoint that covers it; checkpoints are signed as seldom as that bound allows: in the last
 * sequencing round that still ends in time, judged from how far apart recent rounds started and how long they
 * took. Pure, so the decision is tested with plain numbers (no clock, no timer).
 */
/** Rounds remembered for the estimate of the next one. */
const WINDOW = 16;

export class CheckpointSchedule {
  private readonly gaps: number[] = [];
  private readonly durations: number[] = [];
  private lastStart?: number;
  /** Entries integrated since the last signing were committed no earlier than this (ms since the epoch). */
  private uncoveredSince?: number;

  constructor(private readonly intervalMs: number) {}

  /** A round started at `start`; it integrated `integrated` entries, which committed after the previous round's start. */
  integrated(start: number, integrated: number): void {
    const previous = this.lastStart;
    if (previous !== undefined) remember(this.gaps, start - previous);
    this.lastStart = start;
    if (integrated > 0 && this.uncoveredSince === undefined) this.uncoveredSince = previous ?? start;
  }

  /**
   * Whether the round started at `start` signs now, at `now`: the next round, started one usual gap after this one
   * and taking as long as the slowest recent round, would sign too late for the oldest entry not yet covered.
   */
  due(start: number, now: number): boolean {
    if (this.uncoveredSince === undefined) return false;
    // No round seen before this one: when the next comes is unknown, so this one signs.
    if (!this.gaps.length) return true;
    const nextEnd = Math.max(start + max(this.gaps), now) + max(this.durations);
    return nextEnd >= this.uncoveredSince + this.intervalMs;
  }

  /** The round started at `start` ended at `end` (signing or not). */
  ended(start: number, end: number): void {
    remember(this.durations, end - start);
  }

  /** The round signed every log it grew: nothing integrated so far is waiting. */
  signed(): void {
    this.uncoveredSince = undefined;
  }

  /** Whether entries integrated by this process wait for a checkpoint. */
  waiting(): boolean {
    return this.uncoveredSince !== undefined;
  }
}

function remember(window: number[], value: number): void {
  window.push(Math.max(0, value));
  if (window.length > WINDOW) window.shift();
}

function max(values: number[]): number {
  return values.reduce((a, b) => Math.max(a, b), 0);
}
