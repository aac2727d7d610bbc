import { Clock } from '../../src/common/clock/clock';

/**
 * A clock that stands still until a test moves it. It starts at the real time (API key expiry is compared with
 * timestamps the database wrote) — never at 0, which lru-cache would read as "no TTL".
 */
export class FakeClock extends Clock {
  private current = Date.now();

  now(): number {
    return this.current;
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
