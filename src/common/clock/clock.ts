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

/**
 * Runs a callback after some milliseconds. Injected like `Clock` wherever a short wait decides what happens
 * next (the attestation batcher's wait for a fuller group), so tests fire it when they choose.
 */
export abstract class Timer {
  /** Calls `run` once after `ms` milliseconds, unless the returned `cancel` is called first. */
  abstract after(ms: number, run: () => void): { cancel(): void };
}

export class SystemTimer extends Timer {
  after(ms: number, run: () => void): { cancel(): void } {
    const handle = setTimeout(run, ms);
    return { cancel: () => clearTimeout(handle) };
  }
}
