/**
 * Wall-clock time in epoch milliseconds. Injected (the app's CoreModule provides `SystemClock`) wherever time
 * decides an outcome — cache expiry, key expiry — so tests move time forward instead of waiting for it.
 */
export abstract class Clock {
  abstract now(): number;
}

export class SystemClock extends Clock {
  now(): number {
    return Date.now();
  }
}
