import { CheckpointSchedule } from './checkpoint-schedule';

/**
 * Rounds every `gap` ms integrating entries, each taking `took` ms to integrate and `signing` ms to sign when it
 * signs. Answers when each signature landed and, for each signature, the longest any entry it covered waited
 * (entries commit all the time; one committed just after a round started is integrated by the next round).
 */
function run(schedule: CheckpointSchedule, rounds: number, gap: number, took: number, signing = 5): { signedAt: number[]; waits: number[] } {
  const signedAt: number[] = [];
  const waits: number[] = [];
  let oldestUncovered: number | undefined;
  let previousStart: number | undefined;
  for (let k = 0; k < rounds; k++) {
    const start = 10_000 + k * gap;
    const now = start + took;
    schedule.integrated(start, now, 5);
    // What this round integrated committed after the previous round started.
    oldestUncovered ??= previousStart ?? start;
    previousStart = start;
    if (schedule.due(start, now)) {
      const at = now + signing;
      signedAt.push(at);
      waits.push(at - oldestUncovered);
      oldestUncovered = undefined;
      schedule.signed(signing);
    }
  }
  return { signedAt, waits };
}

const spacing = (times: number[]) => times.slice(1).map((t, i) => t - times[i]);

describe('CheckpointSchedule: when a round signs, so a committed entry waits at most the interval for a checkpoint', () => {
  it('under steady load with 250 ms rounds and a 1000 ms interval: every entry is covered within 1000 ms, about every third round signs', () => {
    const { signedAt, waits } = run(new CheckpointSchedule(1000, 250), 40, 250, 40);
    expect(Math.max(...waits)).toBeLessThanOrEqual(1000);
    // No more often than needed once the estimate has settled: never in consecutive rounds.
    expect(Math.min(...spacing(signedAt).slice(2))).toBeGreaterThanOrEqual(750);
  });

  it('signs sooner when rounds are slow, so the wait stays within the interval', () => {
    const { waits } = run(new CheckpointSchedule(1000, 250), 40, 250, 300);
    expect(Math.max(...waits)).toBeLessThanOrEqual(1000);
  });

  it('signs nothing while nothing was integrated, then counts from the start of the round before the first integration', () => {
    const schedule = new CheckpointSchedule(1000, 250);
    schedule.integrated(0, 10, 0);
    schedule.integrated(250, 260, 0);
    expect(schedule.due(250, 260)).toBe(false);
    expect(schedule.waiting()).toBe(false);
    schedule.integrated(500, 510, 3); // these committed after 250, the previous round's start
    expect(schedule.waiting()).toBe(true);
    expect(schedule.due(500, 510)).toBe(false); // the next round (750, ending by about 760) is in time for 250 + 1000
    schedule.integrated(750, 760, 0);
    expect(schedule.due(750, 760)).toBe(false); // the one after (1000, by 1010) still is
    schedule.integrated(1000, 1010, 0);
    expect(schedule.due(1000, 1010)).toBe(true); // 1250 + 10 >= 1250: the round after this one would be late
  });

  it('counts a round that overran a tick: the next round comes at the first tick after it, not one gap after its start', () => {
    const schedule = new CheckpointSchedule(1000, 250);
    schedule.integrated(0, 10, 0);
    schedule.integrated(250, 260, 4); // waiting since 0
    // This round started at 500 and is still integrating at 760: the tick at 750 is skipped, the next is at 1000,
    // which would end after 1000 (0 + the interval): so this round signs.
    schedule.integrated(500, 760, 2);
    expect(schedule.due(500, 760)).toBe(true);
  });

  it('takes the oldest entry\'s own age when it is older than the previous round (another process took part of the queue)', () => {
    const schedule = new CheckpointSchedule(1000, 250);
    schedule.integrated(0, 10, 0);
    schedule.integrated(250, 260, 0);
    // Integrated at 500-510, but the oldest of them was recorded 900 ms before 510 (at -390).
    schedule.integrated(500, 510, 7, 900);
    expect(schedule.due(500, 510)).toBe(true); // 760 + 10 >= -390 + 1000
  });

  it('a failed round leaves what it may have integrated waiting, from the previous round\'s start', () => {
    const schedule = new CheckpointSchedule(1000, 250);
    schedule.integrated(0, 10, 0);
    schedule.failed(250);
    expect(schedule.waiting()).toBe(true);
    schedule.integrated(500, 510, 0);
    schedule.integrated(750, 760, 0);
    expect(schedule.due(750, 760)).toBe(true); // waiting since 0: the round at 1000 would be late
  });

  it('remembers how long signing took, so a slow signer signs earlier', () => {
    const fast = run(new CheckpointSchedule(1000, 250), 40, 250, 20, 5);
    const slow = run(new CheckpointSchedule(1000, 250), 40, 250, 20, 240);
    expect(Math.max(...slow.waits)).toBeLessThanOrEqual(1000);
    expect(slow.signedAt.length).toBeGreaterThan(fast.signedAt.length);
  });

  it('with rounds as far apart as the interval, signs in every round that integrated', () => {
    const { signedAt } = run(new CheckpointSchedule(100, 250), 10, 250, 5);
    expect(signedAt).toHaveLength(10);
  });
});
