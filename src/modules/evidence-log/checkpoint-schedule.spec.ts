import { CheckpointSchedule } from './checkpoint-schedule';

/** Rounds every `gap` ms taking `took` ms each, each integrating entries; answers the times at which a round signed. */
function run(schedule: CheckpointSchedule, rounds: number, gap: number, took: number): number[] {
  const signedAt: number[] = [];
  for (let k = 0; k < rounds; k++) {
    const start = 10_000 + k * gap;
    schedule.integrated(start, 5);
    const now = start + took / 2;
    if (schedule.due(start, now)) {
      signedAt.push(start + took);
      schedule.signed();
    }
    schedule.ended(start, start + took);
  }
  return signedAt;
}

describe('CheckpointSchedule: when a round signs, so a committed entry waits at most the interval for a checkpoint', () => {
  it('under steady load with 250 ms rounds and a 1000 ms interval, signs every third or fourth round and never lets an entry wait longer', () => {
    const signedAt = run(new CheckpointSchedule(1000), 40, 250, 40);
    const spacing = signedAt.slice(1).map((t, i) => t - signedAt[i]);
    // Entries committed just after a signing round read are covered by the next signing: the spacing is the wait.
    expect(Math.max(...spacing)).toBeLessThanOrEqual(1000);
    // And no more often than needed: never two signings in consecutive rounds once the estimate has settled.
    expect(Math.min(...spacing.slice(2))).toBeGreaterThanOrEqual(750);
  });

  it('signs sooner when rounds are slow, so the wait stays within the interval', () => {
    const signedAt = run(new CheckpointSchedule(1000), 40, 250, 300);
    const spacing = signedAt.slice(1).map((t, i) => t - signedAt[i]);
    expect(Math.max(...spacing)).toBeLessThanOrEqual(1000);
  });

  it('signs nothing while nothing was integrated, and then counts from the round before the first integration', () => {
    const schedule = new CheckpointSchedule(1000);
    schedule.integrated(0, 0);
    schedule.ended(0, 10);
    schedule.integrated(250, 0);
    expect(schedule.due(250, 260)).toBe(false);
    schedule.ended(250, 260);
    expect(schedule.waiting()).toBe(false);
    schedule.integrated(500, 3); // these committed after 250, the previous round's start
    expect(schedule.waiting()).toBe(true);
    expect(schedule.due(500, 510)).toBe(false); // the next round (750, ending ~760) is still in time for 250 + 1000
    schedule.ended(500, 510);
    schedule.integrated(750, 0);
    expect(schedule.due(750, 760)).toBe(false); // 1000 + 10 < 1250
    schedule.ended(750, 760);
    schedule.integrated(1000, 0);
    expect(schedule.due(1000, 1010)).toBe(true); // 1250 + 10 >= 1250: the round after this one would be late
  });

  it('with rounds as far apart as the interval, signs in every round that integrated', () => {
    const signedAt = run(new CheckpointSchedule(100), 10, 250, 5);
    expect(signedAt).toHaveLength(10);
  });
});
